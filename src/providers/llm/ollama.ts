import { postJson, probeJson } from "../http.js";
import { malformedAnswer, tokenCount } from "./answerErrors.js";
import { AVAILABLE_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, defaultBaseUrls, defaultModels } from "./defaults.js";
import type { HttpProviderOptions } from "./providerOptions.js";
import type { LlmProvider, LlmRequest, LlmResult } from "./types.js";

/** Ollama's native chat API; `format` takes the JSON schema itself (structured outputs). */
export class OllamaProvider implements LlmProvider {
  readonly name = "ollama";
  readonly model: string;
  readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(options: Omit<HttpProviderOptions, "apiKey"> = {}) {
    this.model = options.model ?? defaultModels.ollama;
    this.baseUrl = (options.baseUrl ?? defaultBaseUrls.ollama).replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async generate(request: LlmRequest): Promise<LlmResult> {
    const json = await postJson({
      provider: this.name,
      url: `${this.baseUrl}/api/chat`,
      body: ollamaRequestBody(this.model, request),
      timeoutMs: request.timeoutMs ?? this.timeoutMs,
      signal: request.signal,
    });
    return { ...readOllamaAnswer(json), provider: this.name, model: this.model };
  }

  async available(): Promise<boolean> {
    return (await this.listModels()) !== undefined;
  }

  /** Installed model names, or undefined when the server does not answer. */
  async listModels(timeoutMs: number = AVAILABLE_TIMEOUT_MS): Promise<string[] | undefined> {
    const answer = await probeJson({ url: `${this.baseUrl}/api/tags`, timeoutMs });
    if (answer === undefined) return undefined;
    const models = (answer.json as { models?: Array<{ name?: unknown }> } | null)?.models ?? [];
    return models.map((model) => model.name).filter((name): name is string => typeof name === "string");
  }
}

export function ollamaRequestBody(model: string, request: LlmRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model,
    messages: [
      ...(request.system ? [{ role: "system", content: request.system }] : []),
      { role: "user", content: request.prompt },
    ],
    stream: false,
  };
  if (request.jsonSchema) body.format = request.jsonSchema.schema;
  const options: Record<string, number> = {};
  if (request.temperature !== undefined) options.temperature = request.temperature;
  if (request.maxOutputTokens !== undefined) options.num_predict = request.maxOutputTokens;
  if (Object.keys(options).length > 0) body.options = options;
  return body;
}

interface ChatAnswer {
  message?: { content?: unknown };
  done_reason?: unknown;
  prompt_eval_count?: unknown;
  eval_count?: unknown;
}

function readOllamaAnswer(json: unknown): Pick<LlmResult, "text" | "usage" | "warnings"> {
  const answer = (json ?? {}) as ChatAnswer;
  const content = answer.message?.content;
  if (typeof content !== "string") throw malformedAnswer("ollama", "response has no message.content", json);
  return {
    text: content,
    usage: { inputTokens: tokenCount(answer.prompt_eval_count), outputTokens: tokenCount(answer.eval_count) },
    warnings: answer.done_reason === "length" ? ["ollama: the answer was cut off at the output token limit"] : [],
  };
}

/**
 * The base URL for an OLLAMA_HOST value, read as the Ollama CLI reads it: "host", "host:port" and
 * ":port" mean http on port 11434 unless given, a value with a scheme keeps that scheme's default
 * port. 0.0.0.0 is a bind address, so connect to the loopback instead.
 */
export function ollamaBaseUrlFromHost(host: string | undefined): string | undefined {
  const value = host?.trim();
  if (!value) return undefined;
  const hasScheme = value.includes("://");
  try {
    const url = new URL(hasScheme ? value : `http://${value.startsWith(":") ? `127.0.0.1${value}` : value}`);
    if (url.hostname === "0.0.0.0") url.hostname = "127.0.0.1";
    if (!hasScheme && url.port === "") url.port = "11434";
    return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
  } catch {
    return undefined;
  }
}
