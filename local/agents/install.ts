// `node local/agents/install.ts [id ...]`: installs framework agents (frameworks.ts) into the cache
// when they are not there yet — by default the ones the integration test runs live
// (LIVE_TEST_FRAMEWORKS); CI runs this before the tests, as it fetches the Kafka jars.
import { ensureFrameworkEnv } from './framework-env.ts';
import { frameworkAgent, LIVE_TEST_FRAMEWORKS } from './frameworks.ts';

const ids = process.argv.length > 2 ? process.argv.slice(2) : [...LIVE_TEST_FRAMEWORKS];
for (const id of ids) {
  const env = await ensureFrameworkEnv(frameworkAgent(id), { onInstall: (message) => process.stderr.write(`${message}\n`) });
  process.stdout.write(`${id}: ${env.directory}\n`);
}
