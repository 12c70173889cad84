// Every module the service, the CLI and the package ship loads in plain Node, as bin/scorestream
// runs them — not only under vitest, whose CommonJS interop accepts named imports that Node's ESM
// loader refuses (a named import of kafkajs' error classes once passed every unit test and broke
// every command).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Entry points that act when imported (the CLI's main, the jar download) are left out.
const actOnImport = new Set(['cli/main.ts', 'local/kafka/fetch.ts', 'local/model/fetch.ts', 'local/agents/install.ts']);

it('every shipped module loads in plain Node', () => {
  const files = execFileSync('git', ['ls-files', 'src', 'otel', 'kafka', 'producers', 'consumers', 'service', 'dashboard', 'local', 'cli'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file.endsWith('.ts') && !actOnImport.has(file));
  expect(files.length).toBeGreaterThan(100);
  const script = `const failed = []; for (const file of ${JSON.stringify(files)}) { try { await import(new URL(file, ${JSON.stringify(`file://${root}`)}).href); } catch (error) { failed.push(file + ': ' + error.message.split('\\n')[0]); } } console.log(JSON.stringify(failed));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '--disable-warning=ExperimentalWarning', '-e', script], { cwd: root, encoding: 'utf8' });
  expect(JSON.parse(output.trim().split('\n').at(-1)!)).toEqual([]);
}, 60_000);
