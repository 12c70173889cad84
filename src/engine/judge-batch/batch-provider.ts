// One provider's batch API, as the batch tier uses it (openai-batches.ts, anthropic-batches.ts):
// submit requests, poll a batch, read its answers. Each implementation takes its transport
// (`fetch`) and credentials as the live judge's provider does.
import type { BatchAnswer, BatchRequest } from './batch-request.ts';

/** What a provider accepts in one batch (the tier splits above it: split-batches.ts). */
export type BatchCaps = { readonly maxRequests: number; readonly maxBytes: number };

/** How a provider's batch client is made: the judge provider's base URL and credentials, its transport, and caps below the provider's own. */
export type BatchProviderOptions = {
  /** The judge provider's base URL, e.g. https://api.openai.com/v1 or https://api.anthropic.com/v1. */
  baseURL: string;
  apiKey?: string;
  headers?: Record<string, string>;
  fetch?: typeof globalThis.fetch;
  /** Defaults: the provider's own caps. */
  caps?: Partial<BatchCaps>;
};

export type BatchPhase =
  /** Accepted and not ended: validating, queued, running, finalising or being cancelled. */
  | 'in_progress'
  /** Ended: every request answered, failed, expired or cancelled; its answers can be read. */
  | 'ended';

export type BatchState = {
  readonly id: string;
  readonly phase: BatchPhase;
  /** The provider's own word for it (OpenAI's `status`, Anthropic's `processing_status`). */
  readonly providerStatus: string;
};

/**
 * An ended batch's answers by custom id. A request the batch did not answer — expired, cancelled,
 * or not reached — has none and is to be submitted again; a request it refused or failed has a
 * `failed` answer, which goes to the ordinary retry tiers like a live call's error.
 */
export type BatchAnswers = ReadonlyMap<string, BatchAnswer>;

export type BatchProvider = {
  /** 'openai' or 'anthropic' (an OpenAI-compatible server speaks 'openai'). */
  readonly name: string;
  readonly caps: BatchCaps;
  /** Fails with BatchEndpointRefusedError when the server has no batch API for these credentials (checked at a binding's start). */
  probe(): Promise<void>;
  /** One batch of at most `caps` (split-batches.ts splits); resolves once the provider accepted it. */
  submit(requests: readonly BatchRequest[]): Promise<BatchState>;
  poll(batchId: string): Promise<BatchState>;
  /** The answers of an ended batch. */
  answers(batchId: string): Promise<BatchAnswers>;
  cancel(batchId: string): Promise<void>;
};
