import { postJson, probeJson } from "../http.js";
import { malformedAnswer, refusal, tokenCount } from "./answerErrors.js";
import { AVAILABLE_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, defaultBaseUrls, defaultModels } from "./defaults.js";
import type { HttpProviderOptions } from "./providerOptions.js";
import type { LlmProvider, LlmRequest, LlmResult } from "./types.js";

/**
 * OpenAI-compatible chat completions: OpenAI itself and servers that speak its wire format
 * (llama.cpp server, vLLM, LM Studio, OpenRouter).
 */
export class OpenAiProvider implements LlmProvider {
  readonly name = "openai";
  readonly model: string;
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;

  constructor(options: HttpProviderOptions = {}) {
    this.model = options.model ?? defaultModels.openai;
    this.baseUrl = (options.baseUrl ?? defaultBaseUrls.openai).replace(/\/+$/, "");
    this.apiKey = options.apiKey || undefined;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async generate(request: LlmRequest): Promise<LlmResult> {
    const { body, warnings } = openAiRequestBody(this.model, request);
    const json = await postJson({
      provider: this.name,
      url: `${this.baseUrl}/chat/completions`,
      headers: this.headers(),
      body,
      timeoutMs: request.timeoutMs ?? this.timeoutMs,
      signal: request.signal,
      secrets: [this.apiKey],
    });
    const answer = readOpenAiAnswer(json);
    return { ...answer, provider: this.name, model: this.model, warnings: [...warnings, ...answer.warnings] };
  }

  async available(): Promise<boolean> {
    const answer = await probeJson({
      url: `${this.baseUrl}/models`,
      headers: this.headers(),
      timeoutMs: AVAILABLE_TIMEOUT_MS,
    });
    return answer !== undefined;
  }

  private headers(): Record<string, string> {
    return this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {};
  }
}

/**
 * Reasoning models (gpt-5, o-series) reject `temperature` and `max_tokens`; they take
 * `max_completion_tokens`. Other models and most compatible servers know `max_tokens`.
 */
function isReasoningModel(model: string): boolean {
  return /^(gpt-5|o\d)/.test(model.replace(/^.*\//, ""));
}

export function openAiRequestBody(model: string, request: LlmRequest) {
  const reasoning = isReasoningModel(model);
  const warnings: string[] = [];
  const messages = [
    ...(request.system ? [{ role: "system", content: request.system }] : []),
    { role: "user", content: request.prompt },
  ];
  const body: Record<string, unknown> = { model, messages };
  if (request.maxOutputTokens !== undefined) {
    body[reasoning ? "max_completion_tokens" : "max_tokens"] = request.maxOutputTokens;
  }
  if (request.temperature !== undefined) {
    if (reasoning) warnings.push(`openai: temperature is not supported by ${model} and was ignored`);
    else body.temperature = request.temperature;
  }
  if (request.jsonSchema) {
    // strict:false because strict mode rejects common schemas (optional fields, open objects).
    body.response_format = {
      type: "json_schema",
      json_schema: { name: request.jsonSchema.name, schema: request.jsonSchema.schema, strict: false },
    };
  }
  return { body, warnings };
}

interface ChatCompletion {
  choices?: Array<{ message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown }>;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

function readOpenAiAnswer(json: unknown): Pick<LlmResult, "text" | "usage" | "warnings"> {
  const completion = (json ?? {}) as ChatCompletion;
  const choice = completion.choices?.[0];
  const refused = choice?.message?.refusal;
  if (typeof refused === "string" && refused !== "") throw refusal("openai", refused);
  if (choice?.finish_reason === "content_filter") throw refusal("openai", "finish_reason content_filter");
  const content = choice?.message?.content;
  if (typeof content !== "string") throw malformedAnswer("openai", "response has no choices[0].message.content", json);
  return {
    text: content,
    usage: {
      inputTokens: tokenCount(completion.usage?.prompt_tokens),
      outputTokens: tokenCount(completion.usage?.completion_tokens),
    },
    warnings: choice?.finish_reason === "length" ? ["openai: the answer was cut off at the output token limit"] : [],
  };
}
