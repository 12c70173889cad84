// The producer entry (`scorestream/producer`): what agents import to publish their runs, the
// sample-traffic generator for demos and tests, and the contract types they write.
export { createRunPublisher, DEFAULT_RUNS_TOPIC } from './run-publisher.ts';
export type { PublishOptions, PublishReport, RunPublisher, RunPublisherOptions } from './run-publisher.ts';
export { InvalidRunError, validateRuns } from './run-validation.ts';
export type { PublishableRun, RunProblem } from './run-validation.ts';
export { chooseRunContext, traceHeaders, w3cPropagator } from './run-trace-headers.ts';
export { createSampleRunGenerator, generateSampleRuns, sampleRunContext } from './sample/index.ts';
export type { SampleRun, SampleRunGenerator, SampleRunGeneratorOptions } from './sample/index.ts';
export { kafkaHeaderGetter, kafkaHeaderSetter } from '../otel/kafka-headers.ts';
export type { AgentRunEvent, AgentRunEventInput } from '../src/contracts/agent-run-event.ts';
export type { DbMessageInput } from '../src/contracts/messages.ts';
export { parseAgentRunEvent } from '../src/contracts/parse.ts';
