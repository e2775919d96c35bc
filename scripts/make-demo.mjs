// Writes the example sessions behind `cairn run --demo` in the real on-disk formats of Codex,
// Claude Code and pi. The content is invented; the shapes follow each agent's transcripts.
// Run: node scripts/make-demo.mjs (the output under examples/demo/ is committed).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "examples", "demo");
rmSync(root, { recursive: true, force: true });

const write = (path, lines) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
};
const clock = (start) => {
  let t = Date.parse(start);
  return () => {
    t += 20_000;
    return new Date(t).toISOString();
  };
};

// --- Codex: weather-api, fixing a 500 for city names with spaces ---------------------------------
{
  const ts = clock("2026-10-01T09:00:00.000Z");
  const id = "0199e1a0-1c2d-7e3f-8a4b-5c6d7e8f9012";
  const cwd = "/srv/demo/weather-api";
  const lines = [];
  const rec = (type, payload) => lines.push({ timestamp: ts(), type, payload });
  const user = (text) => {
    rec("response_item", { type: "message", role: "user", content: [{ type: "input_text", text }] });
    rec("event_msg", { type: "user_message", message: text, images: [] });
  };
  const say = (text) => {
    rec("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text }] });
    rec("event_msg", { type: "agent_message", message: text });
  };
  let call = 0;
  const exec = (cmd, code, output) => {
    const callId = `call_${++call}`;
    rec("response_item", {
      type: "function_call",
      name: "exec_command",
      arguments: JSON.stringify({ cmd, workdir: cwd }),
      call_id: callId,
    });
    rec("response_item", {
      type: "function_call_output",
      call_id: callId,
      output: `Process exited with code ${code}\nOutput:\n${output}`,
    });
  };
  const patch = (file, body) => {
    const callId = `call_${++call}`;
    rec("response_item", {
      type: "custom_tool_call",
      name: "apply_patch",
      call_id: callId,
      input: `*** Begin Patch\n*** Update File: ${file}\n${body}\n*** End Patch`,
    });
    rec("response_item", {
      type: "custom_tool_call_output",
      call_id: callId,
      output: JSON.stringify({
        output: `Success. Updated the following files:\nM ${file}\n`,
        metadata: { exit_code: 0 },
      }),
    });
  };
  rec("session_meta", {
    id,
    timestamp: "2026-10-01T09:00:00.000Z",
    cwd,
    originator: "codex_cli_rs",
    cli_version: "0.125.0",
    source: "cli",
    model_provider: "openai",
    git: {
      commit_hash: "3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39",
      branch: "main",
      repository_url: "git@github.com:example/weather-api.git",
    },
  });
  rec("turn_context", {
    cwd,
    approval_policy: "on-request",
    sandbox_policy: { type: "workspace-write" },
    model: "gpt-5-codex",
    summary: "auto",
  });
  rec("response_item", {
    type: "message",
    role: "user",
    content: [
      {
        type: "input_text",
        text: `<environment_context>\n  <cwd>${cwd}</cwd>\n  <shell>bash</shell>\n</environment_context>`,
      },
    ],
  });
  user(
    'GET /forecast returns 500 for cities with a space in the name, like "New York". Please fix it. Always use pnpm in this repo, never npm.',
  );
  exec(
    "pnpm test",
    1,
    "FAIL test/forecast.test.ts\n  ● forecast › handles city names with spaces\n    TypeError: Invalid URL: https://api.example-weather.test/v1/forecast?city=New York\nTests: 1 failed, 23 passed, 24 total",
  );
  // The transcript quotes TypeScript source, template literals included.
  const before = "const url = `$" + "{base}/v1/forecast?city=$" + "{city}`;";
  const after = "const url = `$" + "{base}/v1/forecast?city=$" + "{encodeURIComponent(city)}`;";
  exec('rg -n "forecast\\?city" src', 0, `src/routes/forecast.ts:18:  ${before}`);
  patch("src/routes/forecast.ts", `@@\n-  ${before}\n+  ${after}`);
  exec("pnpm test", 0, "PASS test/forecast.test.ts\nTests: 24 passed, 24 total");
  say(
    "Fixed: the city name is now URL-encoded before the upstream call (src/routes/forecast.ts). All 24 tests pass with pnpm test.",
  );
  user("Great. We decided to switch from axios to the built-in fetch for upstream calls, so don't bring axios back.");
  say("Understood: upstream calls stay on the built-in fetch; axios is not used.");
  write(`codex/sessions/2026/10/01/rollout-2026-10-01T11-00-00-${id}.jsonl`, lines);
}

// --- Claude Code: weather-api, caching and the e2e tests -----------------------------------------
{
  const ts = clock("2026-10-03T14:00:00.000Z");
  const sessionId = "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
  const cwd = "/srv/demo/weather-api";
  const lines = [];
  let parent = null;
  let n = 0;
  const base = () => ({
    parentUuid: parent,
    isSidechain: false,
    userType: "external",
    cwd,
    sessionId,
    version: "2.1.38",
    gitBranch: "feature/cache",
  });
  const push = (line) => {
    lines.push(line);
    parent = line.uuid;
  };
  const uuid = () => `d0e1f2a3-b4c5-4d6e-8f70-${String(++n).padStart(12, "0")}`;
  const user = (text) =>
    push({ ...base(), type: "user", message: { role: "user", content: text }, uuid: uuid(), timestamp: ts() });
  let msg = 0;
  const say = (content) =>
    push({
      ...base(),
      type: "assistant",
      requestId: `req_${msg}`,
      message: {
        id: `msg_demo_${++msg}`,
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content,
        stop_reason: null,
        usage: { input_tokens: 1200, output_tokens: 80 },
      },
      uuid: uuid(),
      timestamp: ts(),
    });
  let tool = 0;
  const bash = (command, output, isError = false) => {
    const id = `toolu_demo_${++tool}`;
    say([{ type: "tool_use", id, name: "Bash", input: { command, description: `Run ${command}` } }]);
    push({
      ...base(),
      type: "user",
      message: {
        role: "user",
        content: [{ tool_use_id: id, type: "tool_result", content: output, is_error: isError }],
      },
      uuid: uuid(),
      timestamp: ts(),
      toolUseResult: { stdout: output, stderr: "", interrupted: false },
    });
  };
  const edit = (file, oldString, newString) => {
    const id = `toolu_demo_${++tool}`;
    say([
      {
        type: "tool_use",
        id,
        name: "Edit",
        input: { file_path: `${cwd}/${file}`, old_string: oldString, new_string: newString },
      },
    ]);
    push({
      ...base(),
      type: "user",
      message: {
        role: "user",
        content: [{ tool_use_id: id, type: "tool_result", content: `The file ${cwd}/${file} has been updated.` }],
      },
      uuid: uuid(),
      timestamp: ts(),
    });
  };
  user("<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>");
  user(
    "Add a five-minute cache to the forecast endpoint. Prefer small focused commits, and don't add new dependencies without asking me first.",
  );
  say([{ type: "text", text: "I'll add an in-memory cache keyed by city, without new dependencies." }]);
  edit("src/cache.ts", "", "export class TtlCache<V> { /* ... */ }");
  edit(
    "src/routes/forecast.ts",
    "const data = await fetchForecast(city);",
    "const data = await cache.getOrLoad(city, () => fetchForecast(city));",
  );
  bash("pnpm test", "PASS test/forecast.test.ts\nPASS test/cache.test.ts\nTests: 27 passed, 27 total");
  bash("pnpm lint", "Checked 41 files. No problems found.");
  user(
    "Now run the e2e tests with pnpm test:e2e. They need the mock server: start it with docker compose up -d mock first.",
  );
  bash(
    "pnpm test:e2e",
    "Error: connect ECONNREFUSED 127.0.0.1:4010\n    at TCPConnectWrap.afterConnect\nTests: 6 failed, 6 total",
    true,
  );
  bash("docker compose up -d mock", "Container weather-api-mock-1  Started");
  bash("pnpm test:e2e", "PASS e2e/forecast.e2e.ts\nTests: 6 passed, 6 total");
  say([
    {
      type: "text",
      text: "The cache is in place (src/cache.ts, used by src/routes/forecast.ts). Unit tests, lint and the e2e suite pass; the e2e suite needs the mock server from `docker compose up -d mock`.",
    },
  ]);
  write(`claude-code/projects/-srv-demo-weather-api/${sessionId}.jsonl`, lines);
}

// --- pi: notes-cli, conventions and the test runner ----------------------------------------------
{
  const ts = clock("2026-10-05T08:30:00.000Z");
  const cwd = "/srv/demo/notes-cli";
  const lines = [{ type: "session", version: 3, id: "4f3e2d1c-0b9a-4877-8665-544332211000", timestamp: ts(), cwd }];
  let parentId = null;
  let n = 0;
  const entry = (message) => {
    const id = (0x1000 + ++n).toString(16).padStart(8, "0");
    lines.push({
      type: "message",
      id,
      parentId,
      timestamp: ts(),
      message: { ...message, timestamp: Date.parse(ts()) },
    });
    parentId = id;
  };
  const user = (text) => entry({ role: "user", content: text });
  const say = (content) =>
    entry({
      role: "assistant",
      content,
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: { input: 900, output: 60, cacheRead: 0, cacheWrite: 0, totalTokens: 960 },
      stopReason: content.some((c) => c.type === "toolCall") ? "toolUse" : "stop",
    });
  let call = 0;
  const bash = (command, output, isError = false) => {
    const id = `toolu_pi_${++call}`;
    say([{ type: "toolCall", id, name: "bash", arguments: { command } }]);
    entry({ role: "toolResult", toolCallId: id, toolName: "bash", content: [{ type: "text", text: output }], isError });
  };
  const edit = (path, oldText, newText) => {
    const id = `toolu_pi_${++call}`;
    say([{ type: "toolCall", id, name: "edit", arguments: { path, oldText, newText } }]);
    entry({
      role: "toolResult",
      toolCallId: id,
      toolName: "edit",
      content: [{ type: "text", text: `Edited ${path}` }],
      isError: false,
    });
  };
  user(
    "Add a `notes search <term>` command. Never use default exports in TypeScript, and always run the tests with pnpm test before you say it's done.",
  );
  say([{ type: "text", text: "Adding the search command with named exports." }]);
  edit("src/commands/search.ts", "", "export function searchCommand(term: string) { /* ... */ }");
  bash(
    "pnpm test",
    "FAIL test/search.test.ts\nError: expected 2 matches, received 0\nTests: 1 failed, 18 passed",
    true,
  );
  edit("src/commands/search.ts", "title.includes(term)", "title.toLowerCase().includes(term.toLowerCase())");
  bash("pnpm test", "Tests: 19 passed, 19 total");
  user("Good. We settled on Vitest instead of Jest for this project; remove the leftover jest.config.js.");
  bash("git rm jest.config.js", "rm 'jest.config.js'");
  say([
    {
      type: "text",
      text: "Search is case-insensitive now, all 19 tests pass with pnpm test, and jest.config.js is gone: Vitest is the only test runner.",
    },
  ]);
  write(
    "pi/sessions/--srv-demo-notes-cli--/2026-10-05T08-30-00-000Z_4f3e2d1c-0b9a-4877-8665-544332211000.jsonl",
    lines,
  );
}
console.log(`demo sessions written to ${root}`);
