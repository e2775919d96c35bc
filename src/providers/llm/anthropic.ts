import { postJson } from "../http.js";
import { malformedAnswer, refusal, sumTokenCounts, tokenCount } from "./answerErrors.js";
import { DEFAULT_TIMEOUT_MS, defaultBaseUrls, defaultModels } from "./defaults.js";
import type { HttpProviderOptions } from "./providerOptions.js";
import { type LlmProvider, type LlmRequest, type LlmResult, ProviderError } from "./types.js";

/** The Messages API requires max_tokens; extraction answers fit well within this. */
const DEFAULT_MAX_TOKENS = 8192;

/**
 * Anthropic Messages API.
 *
 * JSON-schema output uses a forced tool call (`tool_choice: {type: "tool"}` with the schema as
 * `input_schema`) and returns the tool input as the answer text. It works on every Claude model
 * that has tool use, where native structured outputs (`output_config.format`) exist only on recent
 * models and reject schema features our prompts use; and it needs no prose instruction and no
 * stripping of code fences, so no warning is due.
 */
export class AnthropicProvider implements LlmProvider {
  readonly name = "anthropic";
  readonly model: string;
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;

  constructor(options: HttpProviderOptions = {}) {
    this.model = options.model ?? defaultModels.anthropic;
    // Tolerate a base URL given with the version path, as some users copy it from docs.
    this.baseUrl = (options.baseUrl ?? defaultBaseUrls.anthropic).replace(/\/+$/, "").replace(/\/v1$/, "");
    this.apiKey = options.apiKey || undefined;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async generate(request: LlmRequest): Promise<LlmResult> {
    if (!this.apiKey) {
      throw new ProviderError({
        provider: this.name,
        kind: "config",
        message: "anthropic: no API key (set ANTHROPIC_API_KEY or llm.apiKey)",
        isRetryable: false,
      });
    }
    const json = await postJson({
      provider: this.name,
      url: `${this.baseUrl}/v1/messages`,
      headers: { "x-api-key": this.apiKey, "anthropic-version": "2023-06-01" },
      body: anthropicRequestBody(this.model, request),
      timeoutMs: request.timeoutMs ?? this.timeoutMs,
      signal: request.signal,
      secrets: [this.apiKey],
    });
    return { ...readAnthropicAnswer(json, request), provider: this.name, model: this.model };
  }

  /** A key is all the API needs; a network round trip here would slow `cairn doctor` for nothing. */
  async available(): Promise<boolean> {
    return this.apiKey !== undefined;
  }
}

/** Tool names must match ^[a-zA-Z0-9_-]{1,64}$. */
export function anthropicToolName(schemaName: string): string {
  return schemaName.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64) || "answer";
}

export function anthropicRequestBody(model: string, request: LlmRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model,
    max_tokens: request.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
    messages: [{ role: "user", content: request.prompt }],
  };
  if (request.system) body.system = request.system;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.jsonSchema) {
    const name = anthropicToolName(request.jsonSchema.name);
    body.tools = [
      { name, description: "Record the answer. Call exactly once.", input_schema: request.jsonSchema.schema },
    ];
    body.tool_choice = { type: "tool", name };
  }
  return body;
}

interface MessagesAnswer {
  content?: Array<{ type?: unknown; text?: unknown; name?: unknown; input?: unknown }>;
  stop_reason?: unknown;
  usage?: Record<string, unknown>;
}

function readAnthropicAnswer(json: unknown, request: LlmRequest): Pick<LlmResult, "text" | "usage" | "warnings"> {
  const answer = (json ?? {}) as MessagesAnswer;
  if (answer.stop_reason === "refusal") throw refusal("anthropic", textOf(answer) || "stop_reason refusal");
  if (!Array.isArray(answer.content)) throw malformedAnswer("anthropic", "response has no content array", json);
  const warnings: string[] = [];
  if (answer.stop_reason === "max_tokens") warnings.push("anthropic: the answer was cut off at the output token limit");
  let text = textOf(answer);
  if (request.jsonSchema) {
    const name = anthropicToolName(request.jsonSchema.name);
    const call = answer.content.find((block) => block.type === "tool_use" && block.name === name);
    if (call && typeof call.input === "object" && call.input !== null) text = JSON.stringify(call.input);
    else warnings.push("anthropic: the model did not call the answer tool; its text is returned instead");
  }
  const usage = answer.usage ?? {};
  return {
    text,
    usage: {
      // input_tokens excludes cached tokens; the prompt's full size is the sum.
      inputTokens: sumTokenCounts(usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens),
      outputTokens: tokenCount(usage.output_tokens),
    },
    warnings,
  };
}

function textOf(answer: MessagesAnswer): string {
  return (answer.content ?? [])
    .filter((block) => block.type === "text" && typeof block.text === "string")
    .map((block) => block.text as string)
    .join("");
}
