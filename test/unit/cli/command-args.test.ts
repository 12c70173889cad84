import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseCommandArgs } from '../../../cli/command-args.ts';

const usage = 'usage: scorestream example [--name N]';
const options = { name: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

describe('parseCommandArgs', () => {
  afterEach(() => vi.restoreAllMocks());

  it('returns the parsed values', () => {
    expect(parseCommandArgs({ args: ['--name', 'x'], options }, usage)).toEqual({ values: { name: 'x' } });
  });

  it('prints the problem and the usage on stderr and exits 2 on a usage error', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(parseCommandArgs({ args: ['--bogus'], options }, usage)).toEqual({ exitCode: 2 });
    expect(errors.mock.calls[0]![0]).toMatch(/Unknown option '--bogus'\nusage: scorestream example/);
  });

  it('prints the usage on stdout and exits 0 on --help or -h', () => {
    const printed = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    expect(parseCommandArgs({ args: ['-h'], options }, usage)).toEqual({ exitCode: 0 });
    expect(printed).toHaveBeenCalledWith(usage);
  });
});
