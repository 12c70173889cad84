// The producer entry (`scorestream/producer`): what agents import to publish their runs and the
// feedback people give on them, the sample-traffic generator for demos and tests, and the
// contract types they write.
export { createRunPublisher, DEFAULT_RUNS_TOPIC } from './run-publisher.ts';
export type { FeedbackPublishReport, PublishOptions, PublishReport, RunPublisher, RunPublisherOptions } from './run-publisher.ts';
export { InvalidRunError, validateRuns } from './run-validation.ts';
export type { PublishableRun, RunProblem } from './run-validation.ts';
export { InvalidFeedbackError, validateFeedback } from './feedback-validation.ts';
export type { FeedbackProblem } from './feedback-validation.ts';
export { DEFAULT_FEEDBACK_TOPIC } from '../src/kit/contracts/feedback-record.ts';
export type { FeedbackRecord, FeedbackRecordInput, FeedbackTarget } from '../src/kit/contracts/feedback-record.ts';
export { feedbackIdFor } from '../src/kit/contracts/feedback-id.ts';
export { chooseRunContext, traceHeaders, w3cPropagator } from './run-trace-headers.ts';
export { createSampleRunGenerator, generateSampleRuns, sampleRunContext } from './sample/index.ts';
export type { SampleRun, SampleRunGenerator, SampleRunGeneratorOptions } from './sample/index.ts';
export { kafkaHeaderGetter, kafkaHeaderSetter } from '../otel/kafka-headers.ts';
export type { AgentRunEvent, AgentRunEventInput } from '../src/kit/contracts/agent-run-event.ts';
export type { DbMessageInput } from '../src/kit/contracts/messages.ts';
export { parseAgentRunEvent, parseFeedbackRecord } from '../src/kit/contracts/parse.ts';
