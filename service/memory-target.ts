// A memory target for the process, kept as Go's GOMEMLIMIT keeps one: the closer the resident set
// comes to the target, the less V8 lets its old generation grow before it collects again. Far
// from the target the shipped heap growth (service/heap-growth.ts) buys throughput; near it the
// runs in flight are collected sooner, for more frequent full collections, each as cheap as the
// live data is small. The growth factor is the only lever: V8 offers no soft limit, and a fixed
// --max-old-space-size turns a large live state (long threads) into an out-of-memory crash where
// this turns it into more collection.
//
// The resident set is read every 100 ms (a /proc read, a few µs); V8 reads the flag at the end of
// every full collection, which at full rate comes every half second or so. Measured with the bench's
// traced service on one broker (docs/benchmarks.md, 2026-12-04 entry on the memory target): peaks
// of 324–343 MB against 363–426 MB without it, at the same throughput within the machine's noise.
import { setFlagsFromString } from 'node:v8';
import type { HeapGrowth } from './heap-growth.ts';

/** The default target: the bound the service is measured against (docs/benchmarks.md). */
export const defaultMemoryTargetMb = 400;

/** Below this share of the target the growth is the ceiling (the shipped factor). */
const easeFrom = 0.7;
/** From this share of the target on, the growth is the floor. */
const floorFrom = 0.95;
/** The least growth: the old generation may grow by a quarter past what survived. */
const floorPercent = 25;
/** Steps the percent moves by, so that the flag changes a few times a run, not at every reading. */
const step = 25;
/** V8's own factor reaches 4×: what a ceiling of 0 (V8's own) counts as between the two shares. */
const v8OwnMaxPercent = 300;

/**
 * The heap growing percent for a resident set of `rssBytes` against `targetBytes`: `ceilingPercent`
 * while there is room (below 70% of the target), the floor from 95% of it on, a straight line in
 * 25-point steps between. A ceiling of 0 (V8's own factor) is given back as 0 while there is room.
 */
export function heapGrowthFor(rssBytes: number, targetBytes: number, ceilingPercent: number): number {
  const share = rssBytes / targetBytes;
  if (share <= easeFrom) return ceilingPercent;
  const ceiling = ceilingPercent === 0 ? v8OwnMaxPercent : ceilingPercent;
  if (ceiling <= floorPercent) return ceiling;
  const room = Math.max(0, (floorFrom - share) / (floorFrom - easeFrom));
  return Math.max(floorPercent, Math.min(ceiling, Math.round((floorPercent + room * (ceiling - floorPercent)) / step) * step));
}

export type MemoryTargetOptions = {
  targetBytes: number;
  /** The growth while there is room: the percent in force at start (0 for V8's own). */
  ceilingPercent: number;
  readRss?: () => number;
  setGrowthPercent?: (percent: number) => void;
  /** Runs `tick` every `ms` until the returned stop is called. */
  every?: (ms: number, tick: () => void) => () => void;
  now?: () => number;
};

/** A reading at or over the target: the growth is at its floor and the live state still does not fit. */
export type OverTarget = { rssBytes: number; targetBytes: number; growthPercent: number };

export type MemoryTarget = {
  readonly targetBytes: number;
  /** The percent last set (the ceiling until the first reading near the target). */
  readonly growthPercent: number;
  /** How many times the percent was changed. */
  readonly changes: number;
  /**
   * Calls `listener` when a reading reaches the target: once, then again only after a reading
   * below 90% of it and at least a minute later, so a service hovering at its target says so
   * once a minute at most. Returns a function that removes the listener.
   */
  onOverTarget(listener: (over: OverTarget) => void): () => void;
  stop(): void;
};

/** A reading below this share of the target re-arms the over-target notice. */
const rearmBelow = 0.9;
const overTargetEveryMs = 60_000;

const unrefInterval = (ms: number, tick: () => void): (() => void) => {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
};

/** Reads the resident set every 100 ms and sets V8's heap growth for it (heapGrowthFor) when it changes. */
export function startMemoryTarget(options: MemoryTargetOptions): MemoryTarget {
  const readRss = options.readRss ?? (() => process.memoryUsage.rss());
  const setGrowthPercent = options.setGrowthPercent ?? ((percent: number) => setFlagsFromString(`--heap-growing-percent=${percent}`));
  const now = options.now ?? Date.now;
  const listeners = new Set<(over: OverTarget) => void>();
  let growthPercent = options.ceilingPercent;
  let changes = 0;
  let armed = true;
  let lastNoticeAt = -Infinity;
  const stop = (options.every ?? unrefInterval)(100, () => {
    const rssBytes = readRss();
    const percent = heapGrowthFor(rssBytes, options.targetBytes, options.ceilingPercent);
    if (percent !== growthPercent) {
      growthPercent = percent;
      changes += 1;
      setGrowthPercent(percent);
    }
    if (rssBytes < options.targetBytes * rearmBelow) armed = true;
    else if (armed && rssBytes >= options.targetBytes && now() - lastNoticeAt >= overTargetEveryMs) {
      armed = false;
      lastNoticeAt = now();
      for (const listener of listeners) listener({ rssBytes, targetBytes: options.targetBytes, growthPercent });
    }
  });
  return {
    targetBytes: options.targetBytes,
    get growthPercent() {
      return growthPercent;
    },
    get changes() {
      return changes;
    },
    onOverTarget(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    stop,
  };
}

export type MemoryTargetSetting = { targetMb: number } | { off: true; reason: string };

/**
 * SCORESTREAM_MEMORY_TARGET_MB: a number of megabytes (default 400), or 0 / off for none. Node
 * started with its own --heap-growing-percent has taken the heap's growth in hand: no target then.
 */
export function memoryTargetSetting(environment: Record<string, string | undefined>, ownHeapGrowth: boolean): MemoryTargetSetting {
  if (ownHeapGrowth) return { off: true, reason: 'node was started with its own --heap-growing-percent' };
  const raw = environment.SCORESTREAM_MEMORY_TARGET_MB?.trim();
  if (raw === undefined || raw === '') return { targetMb: defaultMemoryTargetMb };
  const targetMb = raw.toLowerCase() === 'off' ? 0 : Number(raw);
  if (!Number.isFinite(targetMb) || targetMb < 0) {
    throw new Error(`SCORESTREAM_MEMORY_TARGET_MB must be a number of megabytes, or 0 or off for no target; got '${raw}'`);
  }
  return targetMb === 0 ? { off: true, reason: `SCORESTREAM_MEMORY_TARGET_MB=${raw}` } : { targetMb };
}

let processTarget: MemoryTarget | undefined;

/** The target applyMemoryTarget started for this process, if any: the process has one resident set. */
export function processMemoryTarget(): MemoryTarget | undefined {
  return processTarget;
}

/** As the command line starts, after the heap growth is set: the target the environment asks for, if any. */
export function applyMemoryTarget(environment: Record<string, string | undefined>, heapGrowth: HeapGrowth): MemoryTarget | undefined {
  const setting = memoryTargetSetting(environment, heapGrowth.own);
  processTarget?.stop();
  processTarget = 'off' in setting ? undefined : startMemoryTarget({ targetBytes: setting.targetMb * 2 ** 20, ceilingPercent: heapGrowth.percent });
  return processTarget;
}

/** The warning a service logs when its resident set reaches the target (see MemoryTarget.onOverTarget). */
export function overTargetMessage(over: OverTarget): string {
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
  return `memory: the resident set is ${mb(over.rssBytes)} MB, at or over the ${mb(over.targetBytes)} MB memory target, with V8's heap growth lowered to ${over.growthPercent}%: what the service holds does not fit the target — raise SCORESTREAM_MEMORY_TARGET_MB (and the container's memory) or lower runsInFlight`;
}
