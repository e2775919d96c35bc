import { describe, expect, it } from "vitest";
import type { ItemRecord, SessionRecord } from "../../src/collection/types.js";
import { compactionEntries } from "../../src/pipeline/phase1/offline/compactionSections.js";
import { extractOffline } from "../../src/pipeline/phase1/offline/offlineExtractor.js";
import { correctionOf, isHarnessText } from "../../src/pipeline/phase1/offline/userTurns.js";

/**
 * The offline extractor reads evidence, not wording: sessions written here in words of their own (no
 * benchmark session's text), one per mechanism.
 */
const session: SessionRecord = {
  id: "s",
  agent: "claude-code",
  kind: "interactive",
  cwd: "/work/shop",
  projectKey: "git:example.com/acme/shop",
  gitBranch: null,
  gitCommit: null,
  gitRemote: null,
  title: null,
  parentId: null,
  sourcePath: null,
  startedAt: 0,
  updatedAt: 0,
  endedAt: null,
  contentHash: null,
  invalidatedAt: null,
  processedUntil: null,
  createdAt: 0,
};

type Step =
  | ["user" | "assistant" | "compaction" | "system", string]
  | ["call", string, string, Record<string, unknown>]
  | ["result", string, string, boolean?];

function items(steps: Step[]): ItemRecord[] {
  const tools = new Map<string, string>();
  return steps.map((step, index) => {
    const base = {
      id: index + 1,
      sessionId: "s",
      seq: index + 1,
      key: `k${index}`,
      ts: null,
      originFile: null,
      originLine: null,
    };
    if (step[0] === "call") {
      tools.set(step[1], step[2]);
      return {
        ...base,
        role: "tool_call",
        tool: step[2],
        callId: step[1],
        text: JSON.stringify(step[3]),
        isError: false,
      };
    }
    if (step[0] === "result") {
      return {
        ...base,
        role: "tool_result",
        tool: tools.get(step[1]) ?? null,
        callId: step[1],
        text: step[2],
        isError: step[3] ?? false,
      };
    }
    return { ...base, role: step[0], tool: null, callId: null, text: step[1], isError: false };
  });
}

const factsOf = (steps: Step[]) => extractOffline(session, items(steps))?.facts.map((fact) => fact.content) ?? [];

describe("compaction summaries are mined by section", () => {
  const summary = [
    "This conversation continues an earlier one whose context ran out; what follows sums it up.",
    "",
    "## Problems we hit",
    "- The Redis client timed out under load: raising `socketTimeout` to 5000 fixed it.",
    "",
    "## Choices",
    "1. **Queue in Postgres** - no extra service to run.",
    "",
    "## Still to do",
    "- Migrate the billing worker to the new queue",
    "",
    "## Handy commands",
    "- `make e2e` runs the browser suite",
    "",
    "## Files and code",
    "- src/queue.ts (new)",
  ].join("\n");

  it("keeps fixes, decisions, open work and commands, and never the preamble or the file listing", () => {
    expect(compactionEntries(summary)).toEqual([
      { kind: "fix", text: "The Redis client timed out under load: raising `socketTimeout` to 5000 fixed it." },
      { kind: "decision", text: "Queue in Postgres - no extra service to run." },
      { kind: "open", text: "Migrate the billing worker to the new queue" },
      { kind: "command", text: "`make e2e` runs the browser suite" },
    ]);
  });

  it("writes them as facts citing the compaction, with the open work in the raw memory's Open work section", () => {
    const extraction = extractOffline(
      session,
      items([
        ["compaction", summary],
        ["user", "go on with the billing worker"],
      ]),
    );
    const facts = extraction?.facts ?? [];
    expect(facts.map((f) => [f.type, f.content])).toEqual(
      expect.arrayContaining([
        ["fact", "Error and fix: The Redis client timed out under load: raising `socketTimeout` to 5000 fixed it."],
        ["decision", "Decision: Queue in Postgres - no extra service to run."],
        ["procedural", "Command (from the session's summary): `make e2e` runs the browser suite"],
      ]),
    );
    expect(facts.every((f) => !/continues an earlier one/.test(f.content))).toBe(true);
    expect(extraction?.rawMemory).toMatch(/## Open work\n- Migrate the billing worker to the new queue/);
  });

  it("reads a handoff summary's done work as state, not as work to do", () => {
    const handoff = [
      "Another language model started to solve this problem and produced a summary of its thinking process.",
      "",
      "**Progress so far**",
      "- The CSV importer parses quoted fields",
      "**Next steps**",
      "- Stream rows instead of loading the file",
      "**Constraints and user preferences**",
      "- Keep the importer free of new dependencies",
    ].join("\n");
    expect(compactionEntries(handoff)).toEqual([
      { kind: "state", text: "The CSV importer parses quoted fields" },
      { kind: "open", text: "Stream rows instead of loading the file" },
      { kind: "fact", text: "Keep the importer free of new dependencies" },
    ]);
  });

  it("keeps a continued session that has no request of its own beside its summary", () => {
    const extraction = extractOffline(
      session,
      items([
        ["compaction", summary],
        ["user", "Please continue."],
      ]),
    );
    expect(extraction?.rolloutSummary).toContain("continues from a compaction summary");
    expect(extraction?.facts.map((f) => f.content)).toContain("Decision: Queue in Postgres - no extra service to run.");
  });

  it("reads a summary without sections as prose, leaving out the sentences about the conversation", () => {
    expect(
      compactionEntries("The earlier conversation ran out of context. The billing API lives in services/billing."),
    ).toEqual([{ kind: "fact", text: "The billing API lives in services/billing." }]);
  });

  it("counts an error marked unsolved as open work, and gives open work even when errors fill a summary", () => {
    const errors = Array.from(
      { length: 12 },
      (_, i) => `- A long-winded note on error number ${i}, fixed by a patch to module ${i}`,
    );
    const entries = compactionEntries(
      [
        "## Errors and fixes",
        ...errors,
        "## Problem solving",
        "- Still unresolved: the webhook signature check rejects retries",
        "## Pending",
        "- Ship the importer",
      ].join("\n"),
    );
    expect(entries.filter((e) => e.kind === "open").map((e) => e.text)).toEqual([
      "Still unresolved: the webhook signature check rejects retries",
      "Ship the importer",
    ]);
    expect(entries.filter((e) => e.kind === "fix").length).toBe(6);
  });

  it("stays bounded on a long summary", () => {
    const long = [
      "## Errors",
      ...Array.from({ length: 50 }, (_, i) => `- error number ${i} was fixed by a change`),
    ].join("\n");
    expect(compactionEntries(long).length).toBeLessThanOrEqual(6);
  });
});

describe("a command worked only on positive evidence", () => {
  const run = (id: string, command: string, output: string, isError = false): Step[] => [
    ["call", id, "Bash", { command }],
    ["result", id, output, isError],
  ];

  it("reads a failure sign anywhere in the output, even without an error flag", () => {
    const facts = factsOf([
      ["user", "get the integration suite green"],
      ...run("a", "go test ./...", "runner stopped: the job timed out after 600s"),
      ...run("b", "cargo build", "thread 'main' panicked at src/main.rs:3:5"),
      ...run("c", "make deploy-check", "mkdir: /sys/x: Operation not permitted"),
      ...run("d", "npm test", "harness: exec denied, exit code: 2"),
      ["assistant", "None of the checks could run here; they need a real machine."],
    ]);
    expect(facts.filter((f) => f.startsWith("Command that worked"))).toEqual([]);
    expect(facts).toContain(
      '`go test ./...` failed in this session and never worked after: "runner stopped: the job timed out after 600s".',
    );
  });

  it("names a command the environment lacks without its here-document", () => {
    const facts = factsOf([
      ["user", "log the plan as you go"],
      ...run(
        "e",
        "record_step <<'STEP'\n- the long body of the step\nSTEP",
        "bash: line 1: record_step: command not found",
      ),
      ["assistant", "There is no record_step command here; I kept the plan in my reply."],
    ]);
    // The body is the command's input: the memory names the command.
    expect(facts).toContain(
      '`record_step` failed in this session and never worked after: "bash: line 1: record_step: command not found".',
    );
  });

  it("a red test step before its green one is no pitfall; another command that worked after a failure is a fix", () => {
    const facts = factsOf([
      ["user", "add the discount rule, test first"],
      ...run("a", "pnpm vitest run discount", "FAIL test/discount.test.ts > applies 10%", true),
      ...run("b", "pnpm vitest run discount", "Tests  4 passed (4)"),
      ...run("c", "pnpm e2e", "Error: connect ECONNREFUSED 127.0.0.1:5432", true),
      ...run("d", "pnpm e2e --with-db", "12 passed"),
      ["assistant", "The discount rule is in, and the e2e suite passes with its database."],
    ]);
    expect(facts.some((f) => f.startsWith("`pnpm vitest run discount` failed"))).toBe(false);
    expect(facts).toContain("Command that worked: `pnpm vitest run discount`");
    expect(facts).toContain(
      '`pnpm e2e` failed with "Error: connect ECONNREFUSED 127.0.0.1:5432"; `pnpm e2e --with-db` later succeeded.',
    );
  });
});

describe("a release that failed is the state the session ends in", () => {
  it("keeps a failed publish that never worked, never one that worked", () => {
    const facts = factsOf([
      ["user", "cut the 2.1 release"],
      ["call", "v", "Bash", { command: "pnpm run release:tag" }],
      ["result", "v", "tagged v2.1.0"],
      ["call", "p", "Bash", { command: "pnpm publish" }],
      ["result", "p", "npm error 403 Forbidden - you do not have permission to publish", true],
      ["assistant", "The tag is pushed; publishing was refused by the registry."],
    ]);
    expect(facts).toContain(
      '`pnpm publish` failed in this session and never worked after: "npm error 403 Forbidden - you do not have permission to publish".',
    );
    expect(facts.some((f) => f.includes("release:tag"))).toBe(false);
  });
});

describe("what changed, from the agent's accepted writes", () => {
  it("lists the files written, never one the user refused, marked as agent-reported", () => {
    const extraction = extractOffline(
      session,
      items([
        ["user", "rename the price helper"],
        ["call", "w1", "Write", { file_path: "/work/shop/src/price.ts", content: "x" }],
        ["result", "w1", "File created successfully"],
        ["call", "w2", "Edit", { file_path: "/work/shop/src/legacy.ts" }],
        ["result", "w2", "The user doesn't want to proceed with this tool use.", true],
        ["call", "t", "Bash", { command: "npm test" }],
        ["result", "t", "Tests  9 passed (9)"],
        ["assistant", "Renamed the helper in src/price.ts; tests pass."],
      ]),
    );
    const facts = extraction?.facts.map((f) => f.content) ?? [];
    expect(facts).toContain(
      "Files the agent wrote (agent-reported, a check passed or the user moved on after it): src/price.ts. Left uncommitted by the session.",
    );
    expect(facts.join("\n")).not.toContain("legacy.ts");
    expect(extraction?.rawMemory).toContain('The agent reported: "Renamed the helper in src/price.ts; tests pass."');
  });

  it("says when the session committed them, and that a change no check or user followed is unconfirmed", () => {
    const facts = factsOf([
      ["user", "split the cart module"],
      ["call", "w", "apply_patch", { input: "*** Begin Patch\n*** Add File: src/cart/total.ts\n+x\n*** End Patch" }],
      ["result", "w", "Done"],
      ["call", "g", "Bash", { command: 'git add -A && git commit -m "split cart"' }],
      ["result", "g", "[main 1a2b3c4] split cart"],
      ["assistant", "The cart is split into src/cart/total.ts and committed."],
    ]);
    expect(facts).toContain(
      "Files the agent wrote (agent-reported, unconfirmed: no check passed and the user did not move on after it): src/cart/total.ts. Committed by the session.",
    );
  });
});

describe("user corrections are preferences, quoted", () => {
  it("keeps a correction after the agent acted, below a stated habit, and not the first request", () => {
    const extraction = extractOffline(
      session,
      items([
        ["user", "Don't touch the CSS yet, just wire the form."],
        ["assistant", "I restyled the form and wired the submit handler."],
        ["user", "no inline styles! the form must use the shared tokens"],
        ["assistant", "Switched the form to the shared tokens and removed inline styles."],
      ]),
    );
    const preferences = extraction?.facts.filter((f) => f.type === "preference") ?? [];
    expect(preferences.map((p) => [p.content, p.confidence])).toEqual([
      ["The user corrected the agent, in their words: no inline styles! the form must use the shared tokens", 0.7],
    ]);
  });

  it("a message after the user interrupted the agent is a correction, and the interruption is not the user's words", () => {
    const extraction = extractOffline(
      session,
      items([
        ["user", "add a retry flag to the uploader"],
        ["assistant", "I'll rewrite the uploader around a retry queue first."],
        ["call", "e", "Edit", { file_path: "/work/shop/src/upload.ts", old_string: "a", new_string: "b" }],
        ["result", "e", "The file /work/shop/src/upload.ts has been updated."],
        ["system", "[Request interrupted by user]"],
        ["user", "Keep the current uploader and add the flag beside it."],
      ]),
    );
    const preferences = extraction?.facts.filter((f) => f.type === "preference").map((f) => f.content) ?? [];
    expect(preferences).toEqual([
      "The user corrected the agent, in their words: Keep the current uploader and add the flag beside it.",
    ]);
    expect(extraction?.rolloutSummary).not.toContain("Request interrupted");
  });

  it("a message after a refused step, or saying the user undid the work, is a correction", () => {
    expect(correctionOf("I reverted that change. Keep the old parser for now.", false)?.strong).toBe(true);
    expect(correctionOf("run it against staging instead of prod", true)?.quote).toBe(
      "run it against staging instead of prod",
    );
    expect(correctionOf("then we should be ready to ship it", false)).toBeNull();
    expect(correctionOf("show me where these helpers should live", false)).toBeNull();
    expect(correctionOf("should the config move too?", false)).toBeNull();
    // What the user pasted from a program is the program's wording.
    expect(
      correctionOf("it crashes with\nTypeError: the id must be a string\n    at load (src/db.ts:4:2)", false),
    ).toBeNull();
  });
});

describe("the user's answers to the agent's questions", () => {
  it("are decisions in the user's chosen option, with the option's description", () => {
    const facts = extractOffline(
      session,
      items([
        ["user", "set up error tracking"],
        [
          "call",
          "q",
          "AskUserQuestion",
          {
            questions: [
              {
                question: "Which service should report errors?",
                options: [
                  { label: "Sentry", description: "Hosted, free tier" },
                  { label: "Self-hosted GlitchTip", description: "Runs in our cluster" },
                ],
              },
            ],
          },
        ],
        [
          "result",
          "q",
          'User has answered your questions: "Which service should report errors?"="Self-hosted GlitchTip".',
        ],
        ["call", "r", "AskUserQuestion", { questions: [{ question: "Enable source maps?" }] }],
        ["result", "r", "The user doesn't want to proceed with this tool use.", true],
        ["assistant", "GlitchTip is wired in through the Sentry SDK."],
      ]),
    )?.facts;
    expect(facts?.filter((f) => f.type === "decision").map((f) => [f.content, f.confidence])).toEqual([
      [
        'Asked "Which service should report errors?", the user chose "Self-hosted GlitchTip" (Runs in our cluster).',
        0.75,
      ],
    ]);
  });
});

describe("harness text in the user's turn is not the user", () => {
  it.each([
    "<task-notification><status>completed</status></task-notification>",
    "<local-command-stdout>Set model to opus</local-command-stdout>",
    "Please continue.",
    "/model",
    // Messages hooks send in the user's name, by their label (Claude Code's wording for its hook events).
    "Stop hook feedback:\n[~/.claude/hooks/git-check.sh]: There are untracked files. Commit them before you stop.",
    "SubagentStop hook feedback:\nreport before you stop.",
    "PreToolUse:Bash hook error: the deploy script is locked",
    "UserPromptSubmit operation blocked by hook:\nprompts may not name the production database",
    // A bracketed note standing alone, in any agent's words.
    "[Request interrupted by user for tool use]",
    "[Turn aborted]",
    // Continuation prompts, one sentence or several.
    "Continue from where you left off.",
    "Please continue the conversation from where we left it off without asking the user any further questions. Continue with the last task that you were asked to work on.",
  ])("%s", (text) => {
    expect(isHarnessText(text)).toBe(true);
  });

  it.each([
    "Stop the server before you migrate: it locks the db.",
    "the pre-commit hook fails: it cannot find eslint",
    "[wip] fix the login redirect",
    "continue with the migration, but skip the seed step",
    "Continue. Also rename the helper to formatPrice.",
    "Note: use pnpm, not npm.",
  ])("the user's own: %s", (text) => {
    expect(isHarnessText(text)).toBe(false);
  });

  it("is no request, preference or correction", () => {
    const extraction = extractOffline(
      session,
      items([
        ["user", "port the invoice exporter to streams"],
        ["assistant", "Ported the exporter to streams; the old buffer code is gone."],
        ["user", "<system-notice>Never write to main; another session is active</system-notice>"],
        ["user", "Please continue."],
        ["assistant", "Streams are in; the exporter tests are next."],
        ["user", "Stop hook feedback:\nYou must not stop while tests fail. Never leave the suite red."],
      ]),
    );
    expect(extraction?.facts.filter((f) => f.type === "preference")).toEqual([]);
    expect(extraction?.rolloutSummary).not.toMatch(/Follow-up requests/);
  });
});

describe("the outcome is the last completed turn; a session that stopped mid-work says so", () => {
  it("names the stop and keeps the earlier turn's answer as the outcome", () => {
    const extraction = extractOffline(
      session,
      items([
        ["user", "bump the lockfile"],
        ["assistant", "The lockfile is updated and the build passes."],
        ["user", "now start the dev server"],
        ["assistant", "Starting the dev server to check it."],
        ["call", "d", "Bash", { command: "npm run dev" }],
        ["result", "d", "The user doesn't want to proceed with this tool use.", true],
      ]),
    );
    expect(extraction?.rolloutSummary).toContain('It ended with: "The lockfile is updated and the build passes."');
    expect(extraction?.rolloutSummary).toContain("The user refused 1 of the agent's commands (`npm run dev`)");
    expect(extraction?.rolloutSummary).not.toMatch(/ran 1 shell command/);
    expect(extraction?.facts.map((f) => f.content)).toContain(
      'Open work: the session stopped before the agent finished "now start the dev server" (the user refused or stopped the agent\'s last step).',
    );
  });
});

describe("a session whose last check failed left work open, whatever the agent said last", () => {
  const releaseSteps: Step[] = [
    ["user", "cut the 2.4.0 release"],
    ["call", "c1", "Bash", { command: 'git add -A && git commit -m "Release 2.4.0"' }],
    ["result", "c1", "[main 1a2b3c4] Release 2.4.0\n 3 files changed"],
    ["call", "c2", "Bash", { command: "git tag v2.4.0 && git push origin main v2.4.0" }],
    ["result", "c2", "To example.com:acme/shop.git\n * [new tag] v2.4.0 -> v2.4.0"],
    ["call", "c3", "Bash", { command: "npm run build" }],
    ["result", "c3", "src/cart.ts(3,1): error TS2304: Cannot find name 'Basket'.\nexit code 2", true],
    ["assistant", "The build fails on a missing type; the package was not published."],
  ];

  it("names the failed check, its error and the commits, tags and pushes made before it", () => {
    const facts = factsOf(releaseSteps);
    expect(facts).toContain(
      'Open work: the session stopped before the agent finished "cut the 2.4.0 release" (its last check, `npm run build`, failed: "src/cart.ts(3,1): error TS2304: Cannot find name \'Basket\'.", and nothing after it worked; before that it committed "Release 2.4.0", tagged v2.4.0 and pushed).',
    );
  });

  it("is not open when a later run of a check worked, or when the last check's outcome is unknown", () => {
    const fixed: Step[] = [
      ...releaseSteps.slice(0, -1),
      ["call", "c4", "Bash", { command: "npm run build" }],
      ["result", "c4", "built in 2.1s"],
      ["assistant", "Fixed the type; the build passes."],
    ];
    expect(factsOf(fixed).filter((fact) => fact.startsWith("Open work"))).toEqual([]);
    const stopped: Step[] = [
      ...releaseSteps.slice(0, -2),
      ["result", "c3", "The user doesn't want to proceed with this tool use.", true],
      ["user", "skip the build, we are done for today"],
      ["assistant", "Understood, leaving it here."],
    ];
    expect(factsOf(stopped).filter((fact) => fact.startsWith("Open work"))).toEqual([]);
  });
});

describe("the outcome is the agent's report, digested", () => {
  it("keeps a Markdown report's content under its headings, not its first heading", () => {
    const extraction = extractOffline(
      session,
      items([
        ["user", "add a retry to the payment client"],
        ["call", "w", "Write", { file_path: "/work/shop/src/pay.ts", content: "retry()" }],
        ["result", "w", "File created successfully at: /work/shop/src/pay.ts"],
        [
          "assistant",
          "## Summary\n\nAdded **retries** to the payment client.\n\n### Changed\n- `src/pay.ts`: three attempts with backoff\n- no new dependency\n\n```ts\nretry()\n```",
        ],
      ]),
    );
    expect(extraction?.rawMemory).toContain(
      "## Outcome\n- Summary: Added retries to the payment client.; Changed: `src/pay.ts`: three attempts with backoff; no new dependency",
    );
    expect(extraction?.rolloutSummary).toContain('It ended with: "Summary: Added retries to the payment client.');
  });
});
