// The end of a log file, for error messages: a broker that fails to start says why in its own log.
import { open } from 'node:fs/promises';
import { lastLines } from './run-command.ts';

/** The last `count` lines of a file (reading at most its final 64 KiB), or '' when it is absent. */
export async function tailFile(path: string, count: number): Promise<string> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return '';
  }
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, 64 * 1024);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    return lastLines(buffer.toString('utf8'), count);
  } finally {
    await handle.close();
  }
}
