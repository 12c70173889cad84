// Command-line options and the sizes they imply. Full mode is sized to keep the whole run near
// 9 minutes on a 2-core machine (5 rounds: with 3, the medians of runs of the same tree read (c)
// at 0.59–0.66 × (a), across issue 28's 0.6); --quick shrinks everything for a smoke run (~1 minute).
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type BenchSizes = {
  quick: boolean;
  /** Distinct events; the throughput topic holds exactly these. */
  poolEvents: number;
  partitions: number;
  /** Rounds of (a), (c), (c+tracing), interleaved; medians are reported. */
  rounds: number;
  warmUpEvents: number;
  targetEvents: number;
  naiveMaxSeconds: number;
  latencyWarmUpSeconds: number;
  latencySeconds: number;
  backlogEvents: number;
  judgeDelayMs: number;
  judgeCallsPerModel: number;
  runsInFlight: number;
  judgeWarmUpSeconds: number;
  judgeSeconds: number;
  /** Where children write CPU profiles (--profile), else undefined. */
  profileDirectory?: string;
};

export const usage = `usage: node bench/pipeline.bench.ts [--quick] [--rounds N] [--profile]
  --quick    small sizes, one round: a smoke run (about a minute)
  --rounds N interleaved rounds of the throughput scenarios (default 5; each takes about a minute
             and a half): the targets read the median of each round's ratio, so on a noisy machine
             more rounds give a steadier verdict
  --profile  each service child writes a V8 CPU profile (node --cpu-prof) to a temporary directory,
             named by scenario; node bench/pipeline/profile-summary.ts <directory> summarises them
  KAFKA_BROKERS=host:port uses that broker instead of starting one`;

export function parseBenchOptions(argv: readonly string[]): BenchSizes {
  const roundsAt = argv.indexOf('--rounds');
  const roundsText = roundsAt < 0 ? undefined : argv[roundsAt + 1];
  const rest = roundsAt < 0 ? argv : argv.filter((_, index) => index !== roundsAt && index !== roundsAt + 1);
  const unknown = rest.filter((argument) => argument !== '--quick' && argument !== '--profile');
  if (unknown.length > 0) throw new Error(`unknown argument(s): ${unknown.join(' ')}\n${usage}`);
  const rounds = roundsText === undefined ? undefined : Number(roundsText);
  if (roundsAt >= 0 && (rounds === undefined || !Number.isInteger(rounds) || rounds < 1 || rounds > 20)) {
    throw new Error(`--rounds needs a whole number from 1 to 20, not ${roundsText === undefined ? 'nothing' : JSON.stringify(roundsText)}\n${usage}`);
  }
  const quick = argv.includes('--quick');
  const profileDirectory = argv.includes('--profile') ? join(tmpdir(), `scorestream-bench-profiles-${Date.now()}`) : undefined;
  const shared = { quick, partitions: 6, judgeDelayMs: 200, judgeCallsPerModel: 64, runsInFlight: 256, ...(profileDirectory === undefined ? {} : { profileDirectory }) };
  if (quick) {
    return { ...shared, poolEvents: 4_000, rounds: rounds ?? 1, warmUpEvents: 400, targetEvents: 4_000, naiveMaxSeconds: 3, latencyWarmUpSeconds: 1, latencySeconds: 3, backlogEvents: 20_000, judgeWarmUpSeconds: 2, judgeSeconds: 5 };
  }
  return { ...shared, poolEvents: 24_000, rounds: rounds ?? 5, warmUpEvents: 2_400, targetEvents: 24_000, naiveMaxSeconds: 8, latencyWarmUpSeconds: 3, latencySeconds: 10, backlogEvents: 200_000, judgeWarmUpSeconds: 5, judgeSeconds: 20 };
}
