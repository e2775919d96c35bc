import type { ServerResponse } from "node:http";
import { type LoopbackServer, type RecordedRequest, startLoopbackServer } from "../../helpers/loopbackServer.js";

/** What the fake OpenAI-compatible provider saw. */
export interface ProviderLog {
  /** Stage-one calls per session id (read from "Session <id>" in the prompt). */
  stage1Calls: Map<string, number>;
  consolidationCalls: number;
  /** Stage-one and consolidation requests being answered right now (to tell which phase a kill hit). */
  inFlight: { stage1: number; consolidation: number };
  /** Most consolidation requests ever answered at the same time (1 means never concurrent). */
  maxConcurrentConsolidations: number;
}

export interface FakeProvider {
  server: LoopbackServer;
  log: ProviderLog;
  /** Base URL for CAIRN_LLM_BASE_URL. */
  baseUrl: string;
  close(): Promise<void>;
}

export type Slowness = (phase: "stage1" | "consolidation") => number;

/** A stage-one prompt names its session as "Session <id> (agent, kind)". */
export function sessionIdOf(request: RecordedRequest): string | undefined {
  const prompt = userPrompt(request);
  return /Session (\S+) \(/.exec(prompt)?.[1];
}

export function userPrompt(request: RecordedRequest): string {
  const messages = (request.body as { messages?: Array<{ role: string; content: string }> } | undefined)?.messages;
  return messages?.find((message) => message.role === "user")?.content ?? "";
}

export function systemPrompt(request: RecordedRequest): string {
  const messages = (request.body as { messages?: Array<{ role: string; content: string }> } | undefined)?.messages;
  return messages?.find((message) => message.role === "system")?.content ?? "";
}

export function schemaName(request: RecordedRequest): string | undefined {
  const format = (request.body as { response_format?: { json_schema?: { name?: string } } } | undefined)
    ?.response_format;
  return format?.json_schema?.name;
}

export function completion(content: string, usage = { prompt_tokens: 100, completion_tokens: 50 }) {
  return { choices: [{ message: { role: "assistant", content }, finish_reason: "stop" }], usage };
}

export function stage1Answer(sessionId: string): string {
  return JSON.stringify({
    rollout_summary: `Session ${sessionId} worked on the build and settled how tests are run.`,
    raw_memory: `- In session ${sessionId} the user asked to always run the tests with the project script.`,
    rollout_slug: `session-${sessionId.slice(0, 8)}`,
    // A user-wide habit, so the global workspace has input too (project facts never reach it).
    facts: [
      {
        content: "In all my projects, always run the tests with the project script.",
        type: "preference",
        confidence: 0.9,
        evidence: [],
      },
    ],
    entities: [],
  });
}

export function consolidationAnswer(): string {
  return JSON.stringify({
    memory_md: "# Memory\n\n- Run the tests with the project script before committing.\n",
    memory_summary_md: "v1\n- Tests run through the project script.\n",
    skills: [],
  });
}

/**
 * A well-behaved but slow OpenAI-compatible provider on 127.0.0.1 that counts what it is asked.
 * Expects: the CLI is pointed at it with CAIRN_LLM_PROVIDER=openai and CAIRN_LLM_BASE_URL=<baseUrl>.
 */
export async function startFakeProvider(slowness: Slowness = () => 0): Promise<FakeProvider> {
  const log: ProviderLog = {
    stage1Calls: new Map(),
    consolidationCalls: 0,
    inFlight: { stage1: 0, consolidation: 0 },
    maxConcurrentConsolidations: 0,
  };
  const server = await startLoopbackServer(async (request, res) => {
    if (request.method !== "POST") return { body: { data: [{ id: "fake-model" }] } };
    const consolidation = schemaName(request) === "memory_workspace";
    // Fact decisions (the stored preference seen again) are answered, not counted as extractions.
    if (!consolidation && schemaName(request) !== "stage1_memory") {
      return { body: completion(JSON.stringify({ action: "NONE", confidence: 0.9, reason: "already stored" })) };
    }
    const phase = consolidation ? "consolidation" : "stage1";
    log.inFlight[phase] += 1;
    if (consolidation) {
      log.consolidationCalls += 1;
      log.maxConcurrentConsolidations = Math.max(log.maxConcurrentConsolidations, log.inFlight.consolidation);
    } else {
      const id = sessionIdOf(request) ?? "(none)";
      log.stage1Calls.set(id, (log.stage1Calls.get(id) ?? 0) + 1);
    }
    try {
      await sleepUnlessGone(slowness(phase), res);
    } finally {
      log.inFlight[phase] -= 1;
    }
    const content = consolidation ? consolidationAnswer() : stage1Answer(sessionIdOf(request) ?? "unknown");
    return { body: completion(content) };
  });
  return { server, log, baseUrl: `${server.url}/v1`, close: () => server.close() };
}

/** Waits, but stops early when the client went away (a killed cairn), so in-flight counts stay true. */
function sleepUnlessGone(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    res.on("close", done);
    function done() {
      clearTimeout(timer);
      resolve();
    }
  });
}
