import {
  type LlmProvider,
  type LlmRequest,
  type LlmResult,
  type LlmUsage,
  ProviderError,
  type ProviderErrorKind,
} from "../../src/providers/llm/types.js";

/**
 * One answer of the fake:
 * - a string: the answer text;
 * - `{ json }`: that value as JSON text (what a schema-constrained provider returns);
 * - `{ text, usage?, warnings? }`: full control of the result;
 * - an Error (e.g. from `providerError`): thrown;
 * - a function of the request: computed per call.
 */
export type FakeAnswer =
  | string
  | { json: unknown; usage?: LlmUsage; warnings?: string[] }
  | { text: string; usage?: LlmUsage; warnings?: string[] }
  | Error
  | ((request: LlmRequest, callIndex: number) => FakeAnswer | Promise<FakeAnswer>);

export interface FakeLlmOptions {
  name?: string;
  model?: string;
  /** Answers used in order, one per call. */
  answers?: FakeAnswer[];
  /** Used when the queue is empty; without it an empty queue fails the call loudly. */
  fallback?: FakeAnswer;
  available?: boolean;
}

/**
 * The one fake LLM for the whole test suite: implements the contract, records every request, and
 * answers from a queue or a function. Usage is undefined unless an answer sets it, as with a
 * provider that reports none.
 */
export class FakeLlm implements LlmProvider {
  readonly name: string;
  readonly model: string;
  readonly calls: LlmRequest[] = [];
  isAvailable: boolean;
  private readonly queue: FakeAnswer[];
  private fallback: FakeAnswer | undefined;

  constructor(options: FakeLlmOptions = {}) {
    this.name = options.name ?? "fake";
    this.model = options.model ?? "fake-model";
    this.queue = [...(options.answers ?? [])];
    this.fallback = options.fallback;
    this.isAvailable = options.available ?? true;
  }

  /** Adds answers to the end of the queue. */
  enqueue(...answers: FakeAnswer[]): this {
    this.queue.push(...answers);
    return this;
  }

  /** Answers every call without a queued answer this way. */
  respondWith(answer: FakeAnswer): this {
    this.fallback = answer;
    return this;
  }

  /** The last request, for assertions. */
  get lastCall(): LlmRequest | undefined {
    return this.calls.at(-1);
  }

  async generate(request: LlmRequest): Promise<LlmResult> {
    const callIndex = this.calls.length;
    this.calls.push(request);
    request.signal?.throwIfAborted();
    let answer = this.queue.shift() ?? this.fallback;
    if (answer === undefined) {
      throw new Error(
        `FakeLlm: no answer queued for call ${callIndex + 1} (prompt starts "${request.prompt.slice(0, 60)}")`,
      );
    }
    while (typeof answer === "function") answer = await answer(request, callIndex);
    if (answer instanceof Error) throw answer;
    const base = { provider: this.name, model: this.model };
    if (typeof answer === "string") return { ...base, text: answer, usage: {}, warnings: [] };
    const text = "json" in answer ? JSON.stringify(answer.json) : answer.text;
    return { ...base, text, usage: answer.usage ?? {}, warnings: answer.warnings ?? [] };
  }

  async available(): Promise<boolean> {
    return this.isAvailable;
  }
}

/** A ProviderError with sensible defaults for the kind: retryable unless it is a refusal or config error. */
export function providerError(
  kind: ProviderErrorKind,
  fields: {
    provider?: string;
    message?: string;
    statusCode?: number;
    retryAfterMs?: number;
    isRetryable?: boolean;
  } = {},
): ProviderError {
  const provider = fields.provider ?? "fake";
  return new ProviderError({
    provider,
    kind,
    message: fields.message ?? `${provider}: simulated ${kind} error`,
    isRetryable: fields.isRetryable ?? !(kind === "refusal" || kind === "config"),
    statusCode: fields.statusCode,
    retryAfterMs: fields.retryAfterMs,
  });
}
