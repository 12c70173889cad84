// Small modules stay small. Redesign II split every source file past 300 lines and every function
// past 150; this keeps them split, so the next feature lands in a module of its own instead of
// growing one that already does several jobs. Data is exempt: a labelled dataset is long because
// it holds many cases, not because it mixes concerns.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const maxFileLines = 300;
const maxFunctionLines = 150;
/** Files that are data, not code, each with the reason it may be long. */
const dataFiles = new Map([['eval/judge-quality/labelled-cases.ts', 'the labelled judge-quality dataset: one entry per case']]);

function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.mjs', '*.js'], { cwd: root, encoding: 'utf8' });
  return listed
    .split('\n')
    .filter((file) => file !== '' && !file.startsWith('test/') && !file.startsWith('node_modules/') && !dataFiles.has(file))
    .filter((file) => !file.endsWith('.d.ts'));
}

function isFunctionLike(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node);
}

function longFunctions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunctionLike(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > maxFunctionLines) found.push(`${file}:${first + 1} ${node.name?.getText(source) ?? '(anonymous)'} has ${lines} lines`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

// Parsing every source file with the TypeScript compiler takes seconds, more on a loaded machine.
it(`no source file passes ${maxFileLines} lines and no function ${maxFunctionLines}`, { timeout: 60_000 }, () => {
  const files = sourceFiles();
  expect(files.length).toBeGreaterThan(300);
  const oversize: string[] = [];
  for (const file of files) {
    const text = readFileSync(new URL(file, `file://${root}`), 'utf8');
    const lines = text.split('\n').length;
    if (lines > maxFileLines) oversize.push(`${file} has ${lines} lines`);
    oversize.push(...longFunctions(file, text));
  }
  // Split by concern, one export per file where it reads well: see docs/architecture.md.
  expect(oversize).toEqual([]);
});

it('the data files it exempts still exist, so the exemption cannot outlive its reason', () => {
  for (const file of dataFiles.keys()) expect(() => readFileSync(new URL(file, `file://${root}`))).not.toThrow();
});
