import { describe, expect, it } from 'vitest';
import { brokerContainerName, dockerRunArguments } from '../../../../local/kafka/docker-broker.ts';
import { KAFKA_DOCKER_IMAGE } from '../../../../local/kafka/versions.ts';

describe('dockerRunArguments', () => {
  const base = { container: brokerContainerName('default'), hostPort: 39092, clusterId: 'MkU3OEVBNTcwNTJENDM2Qk' };

  it('publishes the broker on 127.0.0.1 only, at the port it advertises, and runs the pinned image last', () => {
    const args = dockerRunArguments(base);
    expect(args.slice(0, 2)).toEqual(['run', '--detach']);
    expect(args).toContain('scorestream-kafka-default');
    expect(args[args.indexOf('--publish') + 1]).toBe('127.0.0.1:39092:9092');
    expect(args).toContain('KAFKA_ADVERTISED_LISTENERS=PLAINTEXT://127.0.0.1:39092');
    expect(args).toContain('KAFKA_HEAP_OPTS=-Xms256m -Xmx512m');
    expect(args.at(-1)).toBe(KAFKA_DOCKER_IMAGE);
    // Kept after a crash so its logs can explain a failed start.
    expect(args).not.toContain('--rm');
  });
});
