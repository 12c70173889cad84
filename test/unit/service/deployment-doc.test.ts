// docs/deployment.md's Kubernetes Deployment stays in step with the code: its environment is a
// valid config override (the variables exist and their values pass), the probes name the paths
// the health server answers, the ports are the ones the environment sets, and the grace period
// outlasts the shutdown timeout.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../../src/engine/config/defaults.ts';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { memoryTargetSetting } from '../../../service/memory-target.ts';

const page = readFileSync(new URL('../../../docs/deployment.md', import.meta.url), 'utf8');
const yaml = /## Kubernetes[\s\S]*?```yaml\n([\s\S]*?)```/.exec(page)?.[1] ?? '';

/** The `- name: X` / `value: "Y"` pairs of the container's env (secret references have no value). */
function environment(): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const match of yaml.matchAll(/- name: (\w+)\n\s+(?:value: "([^"]*)"|valueFrom: .*)/g)) pairs[match[1]!] = match[2] ?? 'from-a-secret';
  return pairs;
}

describe('the Kubernetes Deployment of docs/deployment.md', () => {
  it('has a YAML block', () => {
    expect(yaml).toContain('kind: Deployment');
  });

  it('sets only variables the service reads, with values its config accepts', () => {
    const env = environment();
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['KAFKA_BROKERS', 'SCORESTREAM_HEALTH_PORT', 'OTEL_METRICS_EXPORTER']));
    const scorer = createScorer({ id: 'constant', description: 'd' }).generateScore(() => 1);
    const config = resolveConfig({ scorers: [{ scorer }] }, { environment: env });
    expect(config.health.port).toBe(Number(env.SCORESTREAM_HEALTH_PORT));
    expect(config.kafka.sasl).toMatchObject({ mechanism: 'scram-sha-512', username: 'scorestream' });
  });

  it('probes the paths the health server answers, on the health port', () => {
    const env = environment();
    const probe = (name: string) => new RegExp(`${name}:\\n\\s+httpGet: \\{ path: (/\\w+), port: (\\w+) \\}`).exec(yaml)?.slice(1);
    expect(probe('startupProbe')).toEqual(['/startupz', 'health']);
    expect(probe('livenessProbe')).toEqual(['/livez', 'health']);
    expect(probe('readinessProbe')).toEqual(['/readyz', 'health']);
    const port = (name: string) => Number(new RegExp(`\\{ name: ${name}, containerPort: (\\d+) \\}`).exec(yaml)?.[1]);
    expect(port('health')).toBe(Number(env.SCORESTREAM_HEALTH_PORT));
    expect(port('metrics')).toBe(Number(env.OTEL_EXPORTER_PROMETHEUS_PORT));
  });

  it('keeps the memory target a valid number of megabytes below the memory the pod requests', () => {
    const setting = memoryTargetSetting(environment(), false);
    const requestMi = Number(/requests: \{[^}]*memory: "(\d+)Mi"/.exec(yaml)?.[1]);
    expect(setting).toEqual({ targetMb: 400 });
    expect(requestMi).toBeGreaterThan(0);
    // The service reads the target as 2^20-byte megabytes, the unit of Mi.
    expect((setting as { targetMb: number }).targetMb).toBeLessThanOrEqual(requestMi * 0.85);
  });

  it('gives a stopping pod longer than the service takes to finish its in-flight runs', () => {
    const grace = Number(/terminationGracePeriodSeconds: (\d+)/.exec(yaml)?.[1]);
    expect(grace * 1000).toBeGreaterThan(DEFAULTS.shutdownTimeoutMs);
  });
});
