// `node local/promtool/build.ts`: builds promtool and amtool into the cache when they
// are not there yet (CI runs this before the tests, as it builds the Collector), and prints their paths.
import { ensurePrometheusTool } from './build-promtool.ts';

for (const tool of ['promtool', 'amtool'] as const) {
  const binary = await ensurePrometheusTool(tool, { onBuild: (message) => process.stderr.write(`${message}\n`) });
  process.stdout.write(`${binary}\n`);
}
