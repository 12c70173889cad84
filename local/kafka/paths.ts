// Where the local broker keeps things: downloaded jars in the user's cache (shared by every
// clone and kept between runs), named brokers' state (pid, ports, data, log) in the user's state
// directory. Both follow the XDG base-directory variables, so CI can point them elsewhere. Node's
// compile cache for the service lives beside the jars.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { KAFKA_VERSION } from './versions.ts';

type Environment = Record<string, string | undefined>;

function baseDirectory(environment: Environment, variable: string, fallback: string[]): string {
  const configured = environment[variable];
  return configured !== undefined && configured.trim() !== '' ? configured : join(homedir(), ...fallback);
}

/** `${XDG_CACHE_HOME:-~/.cache}/scorestream`: every download and build the local parts cache. */
export function scorestreamCacheDirectory(environment: Environment = process.env): string {
  return join(baseDirectory(environment, 'XDG_CACHE_HOME', ['.cache']), 'scorestream');
}

/** `${XDG_CACHE_HOME:-~/.cache}/scorestream/kafka-<version>`: the pom and the `libs` jar folder. */
export function kafkaCacheDirectory(environment: Environment = process.env): string {
  return join(scorestreamCacheDirectory(environment), `kafka-${KAFKA_VERSION}`);
}

/**
 * `${NODE_COMPILE_CACHE:-${XDG_CACHE_HOME:-~/.cache}/scorestream/node-compile-cache}`: where
 * bin/scorestream (in bash, the same rule) and the benchmark's service children keep Node's compile cache.
 */
export function nodeCompileCacheDirectory(environment: Environment = process.env): string {
  const configured = environment.NODE_COMPILE_CACHE;
  if (configured !== undefined && configured !== '') return configured;
  return join(scorestreamCacheDirectory(environment), 'node-compile-cache');
}

/** `${XDG_STATE_HOME:-~/.local/state}/scorestream/brokers/<name>`: one named broker's files. */
export function brokerStateDirectory(name: string, environment: Environment = process.env): string {
  return join(baseDirectory(environment, 'XDG_STATE_HOME', ['.local', 'state']), 'scorestream', 'brokers', name);
}

const brokerNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Broker names become directory and container names: keep them to a safe alphabet. */
export function isValidBrokerName(name: string): boolean {
  return brokerNamePattern.test(name) && name !== '.' && name !== '..';
}
