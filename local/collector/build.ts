// `node local/collector/build.ts`: builds the project's OpenTelemetry Collector into the cache
// when it is not there yet (CI runs this before the tests, as it fetches the Kafka jars), and
// prints the binary's path.
import { ensureCollectorBinary } from './build-collector.ts';

const binary = await ensureCollectorBinary({ onBuild: (message) => process.stderr.write(`${message}\n`) });
process.stdout.write(`${binary}\n`);
