import type { LoopbackReply, RecordedRequest } from "./loopbackServer.js";

/** What an OpenAI-compatible chat request asks: the user prompt and the answer schema it names. */
export function chatRequest(request: RecordedRequest): { prompt: string; schema: string | undefined } {
  const body = request.body as {
    messages: Array<{ role: string; content: string }>;
    response_format?: { json_schema?: { name?: string } };
  };
  return {
    prompt: body.messages.find((m) => m.role === "user")?.content ?? "",
    schema: body.response_format?.json_schema?.name,
  };
}

/** The data a prompt quotes between cairn's marker lines (quoteAsData), parsed. */
export function quotedData<T>(prompt: string): T {
  return JSON.parse(/<<<MEMORY DATA \w+>>>\n(.*)\n<<<END/s.exec(prompt)![1]!) as T;
}

/** A chat completion whose message is `answer` as JSON text. */
export function chatAnswer(answer: unknown): LoopbackReply {
  const content = JSON.stringify(answer);
  return { body: { choices: [{ message: { role: "assistant", content }, finish_reason: "stop" }], usage: {} } };
}

/** The config that points cairn's model at a fake OpenAI-compatible server started by the test. */
export function fakeModelConfig(server: { url: string }): Record<string, string> {
  return {
    "llm.provider": "openai",
    "llm.baseUrl": `${server.url}/v1`,
    "llm.model": "fake-model",
    "llm.apiKey": "k",
  };
}
