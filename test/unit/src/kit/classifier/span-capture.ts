// A tracer whose finished spans land in memory, with an async-hooks context manager installed
// so active-span parentage works across awaits, as in the real service.

import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

let contextManagerInstalled = false;

export function captureSpans() {
  if (!contextManagerInstalled) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    contextManagerInstalled = true;
  }
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  return { tracer: provider.getTracer('test'), spans: () => exporter.getFinishedSpans() };
}
