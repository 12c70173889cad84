import { describe, expect, it } from 'vitest';
import { brokersFromEnvironment, chooseEngine, isAddressInUse } from '../../../../local/kafka/broker-handle.ts';

describe('brokersFromEnvironment', () => {
  it('splits KAFKA_BROKERS on commas and trims', () => {
    expect(brokersFromEnvironment({ KAFKA_BROKERS: ' a:9092, b:9092 ,,' })).toEqual(['a:9092', 'b:9092']);
  });

  it('treats an unset or blank KAFKA_BROKERS as none', () => {
    expect(brokersFromEnvironment({})).toBeUndefined();
    expect(brokersFromEnvironment({ KAFKA_BROKERS: ' , ' })).toBeUndefined();
  });
});

describe('chooseEngine', () => {
  const answers = (value: boolean) => async () => value;

  it('prefers Docker when its engine answers, else the JVM', async () => {
    expect(await chooseEngine({}, answers(true))).toBe('docker');
    expect(await chooseEngine({}, answers(false))).toBe('jvm');
  });

  it('obeys SCORESTREAM_KAFKA_MODE', async () => {
    expect(await chooseEngine({ SCORESTREAM_KAFKA_MODE: 'jvm' }, answers(true))).toBe('jvm');
    expect(await chooseEngine({ SCORESTREAM_KAFKA_MODE: 'Docker' }, answers(true))).toBe('docker');
  });

  it('fails clearly when Docker is forced but no engine answers', async () => {
    await expect(chooseEngine({ SCORESTREAM_KAFKA_MODE: 'docker' }, answers(false))).rejects.toMatchObject({
      code: 'KAFKA_PREREQUISITE_MISSING',
      message: expect.stringContaining('no Docker engine answers'),
    });
  });

  it('rejects an unknown mode', async () => {
    await expect(chooseEngine({ SCORESTREAM_KAFKA_MODE: 'podman' }, answers(true))).rejects.toThrow("must be 'docker' or 'jvm', not 'podman'");
  });
});

describe('isAddressInUse', () => {
  it('recognises a bind failure in the broker log tail', () => {
    expect(isAddressInUse(new Error('... java.net.BindException: Address already in use'))).toBe(true);
    expect(isAddressInUse(new Error('Stored node id 7 does not match'))).toBe(false);
    expect(isAddressInUse('Address already in use')).toBe(false);
  });
});
