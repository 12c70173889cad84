// The Collector's generated config and the build's failure path. The build itself (minutes of Go)
// runs in CI's build step and the OTLP integration tests, which start the real binary.
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CollectorBuildError, collectorBinaryPath, collectorConfig, ensureCollectorBinary } from '../../../../local/collector/index.ts';

describe('collectorConfig', () => {
  it('points an OTLP/HTTP receiver on loopback through the batch processor at the kafka exporter', () => {
    const yaml = collectorConfig({ brokers: ['127.0.0.1:9092', 'b:9093'], topic: 'otlp_spans', encoding: 'otlp_json', partitionTracesById: true, httpPort: 4318, batchTimeoutMs: 50 });
    expect(yaml).toContain('endpoint: 127.0.0.1:4318');
    expect(yaml).toContain('brokers: ["127.0.0.1:9092", "b:9093"]');
    expect(yaml).toMatch(/traces:\n\s+topic: "otlp_spans"\n\s+encoding: otlp_json/);
    expect(yaml).toContain('partition_traces_by_id: true');
    expect(yaml).toContain('timeout: 50ms');
    expect(yaml).toContain('exporters: [kafka]');
    expect(collectorConfig({ brokers: ['k:1'], topic: 't', encoding: 'otlp_proto', httpPort: 1 })).toContain('partition_traces_by_id: false');
    expect(yaml).not.toContain('logs:\n      receivers');
  });

  it('adds a logs pipeline to its own topic when asked (evaluation log records)', () => {
    const yaml = collectorConfig({ brokers: ['k:1'], topic: 'otlp_spans', encoding: 'otlp_proto', httpPort: 1, logs: { topic: 'evaluations', encoding: 'otlp_json' } });
    expect(yaml).toMatch(/ {4}logs:\n {6}topic: "evaluations"\n {6}encoding: otlp_json/);
    expect(yaml).toMatch(/ {4}logs:\n {6}receivers: \[otlp\]\n {6}processors: \[batch\]\n {6}exporters: \[kafka\]/);
  });
});

describe('ensureCollectorBinary', () => {
  async function emptyCache() {
    const cache = await mkdtemp(join(tmpdir(), 'scorestream-collector-test-'));
    onTestFinished(() => rm(cache, { recursive: true, force: true }));
    return cache;
  }
  const noBinary = (environment: Record<string, string | undefined>) => access(collectorBinaryPath(environment));

  it('reports a Go build that cannot fetch its modules with what to check, and leaves no binary behind', async () => {
    const cache = await emptyCache();
    // No module cache and no proxy: the build fails at once, as it would with the proxy unreachable.
    const environment = { ...process.env, XDG_CACHE_HOME: cache, GOMODCACHE: join(cache, 'gomod'), GOPROXY: 'off', GOFLAGS: '' };
    const failure = await ensureCollectorBinary({ environment, timeoutMs: 120_000 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CollectorBuildError);
    expect((failure as Error).message).toMatch(/Go module proxy is reachable \(GOPROXY\)/);
    await expect(noBinary(environment)).rejects.toThrow();
  }, 130_000);

  it('says to install Go when no usable go command is found', async () => {
    const cache = await emptyCache();
    // GOFLAGS that no go command accepts make every `go version` fail, like a missing Go.
    const failure = await ensureCollectorBinary({ environment: { ...process.env, XDG_CACHE_HOME: cache, GOFLAGS: '-no-such-flag' } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CollectorBuildError);
    expect((failure as Error).message).toMatch(/Go is needed .* install it/);
  });
});
