import { describe, expect, it } from "vitest";
import { keyTokens } from "../../src/memory/lifecycle/changeDetector.js";
import { changeStatements } from "../../src/memory/lifecycle/changeStatements.js";
import { judgeSupersession } from "../../src/memory/lifecycle/judgeSupersession.js";
import { isNewer } from "../../src/store/types/memoryRecord.js";

const verdict = (newer: string, older: string) => judgeSupersession(newer, older)?.verdict;

describe("change statements (a)", () => {
  it.each([
    ["We moved from npm to pnpm last week", "Always use npm in this repo, and run the tests with npm test"],
    ["Migrated the build from webpack to vite", "The build uses webpack with a custom loader"],
    ["We switched from Jest to Vitest", "Command that worked: `npx jest src/invoice`"],
    ["Replaced Redux with Zustand for client state", "Client state lives in a Redux store"],
    ["Jest was replaced by Vitest for unit tests", "Run the unit tests with Jest"],
    ["We dropped MySQL in favour of Postgres 16", "The database is MySQL 8"],
    ["We no longer use Redis for caching", "Sessions are cached in Redis"],
    ["We don't use yarn anymore", "Run yarn build before deploying"],
    ["Use pnpm instead of npm", "Install dependencies with npm install"],
    ["Use pnpm, not npm, in this repo", "Always use npm in this repo"],
    ["Always run tests with vitest, not jest", "Run the unit tests with jest"],
    ["The Docker setup is gone", "Start the stack with Docker compose"],
    ["The database is now Postgres 16", "The database is MySQL 8"],
    ["The CLI was ported to Rust", "The CLI is written in Go"],
    ["billing-worker was upgraded to Go 1.23", "billing-worker builds with Go 1.21 and needs CGO for sqlite"],
    ["We moved the API to port 8080", "The API listens on port 3000 locally"],
    ["We changed the request timeout to 30s", "The request timeout is 10s"],
    // The change said of X itself, and an older text that wrote X with its old value.
    ["The release moved to March 10", "The release is planned for March 3"],
    ["The launch was postponed to May 12", "The launch is on May 5"],
    ["The default branch changed to main", "The default branch is master"],
    ["We upgraded Redis to version 7", "Redis 6 is used for caching"],
    ["Bumped Node to 22", "CI runs Node 20.11 on Ubuntu."],
    // The thing named on its own, wherever files named after it also appear; a name with a hyphen whole.
    ["We moved from Terraform to OpenTofu", "Infra uses Terraform 1.5, pinned in .terraform-version"],
    ["We dropped node-fetch in favour of the built-in fetch", "HTTP calls go through node-fetch with retries"],
    // A negation in a remark of its own is about that remark, not the tool.
    [
      "web-dashboard replaced ESLint and Prettier with Biome",
      "Lint with `pnpm lint` (ESLint flat config) and format with Prettier (single quotes, no semicolons).",
    ],
    // A contrast set off by a comma negates the thing it names, not the rest of the clause.
    ["We switched from pnpm to bun", "Use pnpm, not npm, in this repo"],
    // A replacement for one use replaces a memory of that use; a time is no use.
    ["Replaced Redis with Postgres for the job queue", "Background jobs are queued in Redis with BullMQ"],
    ["We moved from npm to pnpm for good", "Always use npm"],
    // A number raised, where both memories say what the number is.
    [
      "MSRV was raised from 1.70 to 1.80; rust-version in Cargo.toml and the msrv job must agree",
      "The minimum supported Rust version is 1.70, declared as rust-version and checked by the msrv job",
    ],
  ])("%s supersedes %s", (newer, older) => {
    expect(judgeSupersession(newer, older)).toEqual({
      verdict: "supersede",
      reason: expect.stringMatching(/^change statement: /),
    });
  });

  it("finds the old and the new thing in each phrasing", () => {
    expect(changeStatements("We moved from npm to pnpm.")).toEqual([
      { kind: "obsolete", obsolete: "npm", replacement: "pnpm", startsSentence: false },
    ]);
    expect(changeStatements("Jest was replaced by Vitest")).toEqual([
      { kind: "obsolete", obsolete: "Jest", replacement: "Vitest", startsSentence: true },
    ]);
    expect(changeStatements("The API port is now 8080")).toEqual([
      { kind: "reassigned", subject: "The API port", replacement: "8080", startsSentence: true },
    ]);
    expect(changeStatements("Always use npm and run npm test")).toEqual([]);
    expect(changeStatements("We moved the API to port 8080")).toEqual([
      { kind: "reassigned", subject: "the API", replacement: "port 8080", startsSentence: false },
    ]);
    // The subject is never the "from" part, nor a word that names nothing.
    expect(changeStatements("We moved the build from webpack to vite")).toEqual([
      { kind: "obsolete", obsolete: "webpack", replacement: "vite", startsSentence: false },
    ]);
    expect(changeStatements("We switched back to npm")).toEqual([]);
    expect(changeStatements("The release moved to March 10")).toEqual([
      { kind: "reassigned", subject: "The release", replacement: "March 10", startsSentence: true },
    ]);
    expect(changeStatements("We moved to pnpm")).toEqual([]);
    expect(changeStatements("I moved it to the shared folder")).toEqual([]);
  });

  it("keys on the name in a described thing, and on every word when nothing is written as a name", () => {
    expect(keyTokens("the old Jest setup", false)).toEqual(["jest"]);
    expect(keyTokens("`npm test`", false)).toEqual(["npm", "test"]);
    expect(keyTokens("yarn workspaces", false)).toEqual(["yarn", "workspac"]);
  });

  it.each([
    // The older one does not present X as current: it already says X is gone, or forbids it.
    ["We moved from npm to pnpm", "We dropped npm for good"],
    ["We moved from npm to pnpm", "Never use npm to publish"],
    ["We dropped npm", "Use pnpm, not npm, in this repo"],
    // It names only part of a many-word thing.
    ["We moved away from yarn workspaces", "Run yarn build before deploying"],
    // Different subjects sharing one word.
    ["We moved from npm to pnpm", "Deploys go through the staging branch"],
    // ", not" without a verb of choice is contrast, not a change.
    ["It is a bug in the parser, not the lexer", "The lexer drops trailing newlines"],
    ["The Docker setup is gone", "The test setup seeds the database"],
    // Same subject, another named thing and value.
    ["billing-worker was upgraded to Go 1.23", "billing-worker listens on port 8080"],
    // A value the older text gives something else than X.
    ["We upgraded Redis to version 7", "Redis keeps sessions for 30 minutes"],
    // Who moved names nothing; a numbered X is one of several.
    ["We moved to March planning", "The release is planned for March 3"],
    ["We upgraded the service to version 2", "Service 3 listens on port 4003"],
  ])("%s does not supersede %s", (newer, older) => {
    expect(verdict(newer, older)).not.toBe("supersede");
  });

  it("reads grammar, not just verbs: a mechanism, an adjective and a preposition are no change", () => {
    expect(changeStatements("In tests the HTTP client is replaced by a stub from test/fakes")).toEqual([]);
    expect(changeStatements("Put a removed marker in the old config")).toEqual([]);
    expect(changeStatements("lodash was removed from package.json")).toEqual([
      { kind: "obsolete", obsolete: "lodash", startsSentence: true },
    ]);
    expect(changeStatements("The tsx and vitest setup is gone")).toEqual([
      { kind: "obsolete", obsolete: "tsx", startsSentence: false },
      { kind: "obsolete", obsolete: "vitest setup", startsSentence: false },
    ]);
    expect(changeStatements("We moved from Terraform to OpenTofu 1.8: use tofu")).toEqual([
      { kind: "obsolete", obsolete: "Terraform", replacement: "OpenTofu 1.8", startsSentence: false },
    ]);
  });

  it.each([
    ["We moved from Terraform to OpenTofu", "Module docs are generated with terraform-docs"],
    ["We moved from Terraform to OpenTofu", "Per-environment values live in terraform.tfvars"],
    ["We moved from Terraform to OpenTofu", "The apply runs in the workflow .github/workflows/terraform.yml"],
    ["We replaced Jest with Vitest", "jest.config.js sets the test timeout to 10 s"],
  ])("asks a person when the older text names the thing only inside a longer name: %s against %s", (newer, older) => {
    expect(judgeSupersession(newer, older)).toEqual({
      verdict: "review",
      reason: expect.stringMatching(/this memory names it only inside a longer name$/),
    });
  });

  it("asks a person when the replacement is for one use and the older memory may be about another", () => {
    expect(
      judgeSupersession("Replaced Redis with Postgres for the job queue", "Redis also holds the rate-limit counters"),
    ).toEqual({
      verdict: "review",
      reason:
        'change statement: "Redis" replaced by "Postgres" for the job queue; this memory may be about another use of it',
    });
    expect(verdict("We replaced Moment with date-fns in the frontend", "The API formats dates with Moment")).toBe(
      "review",
    );
    expect(changeStatements("Replaced Redis with Postgres for the job queue, and dropped BullMQ")).toEqual([
      {
        kind: "obsolete",
        obsolete: "Redis",
        replacement: "Postgres",
        purpose: "for the job queue",
        startsSentence: false,
      },
      { kind: "obsolete", obsolete: "BullMQ", startsSentence: false },
    ]);
  });

  it("asks a person when the older memory names the thing only to describe another", () => {
    // The registry outlives a move from npm to pnpm; the bill is history.
    expect(
      judgeSupersession(
        "We moved from npm to pnpm",
        "Packages are published to the npm registry under the @acme scope",
      ),
    ).toEqual({
      verdict: "review",
      reason: 'change statement: "npm" replaced by "pnpm"; this memory names it only as part of another thing',
    });
    expect(verdict("We moved from Heroku to Fly.io", "The Heroku bill was 300 dollars a month")).toBe("review");
    // Named on its own too, something made with it ("a Redux store"), or about what the newer memory
    // is about: replaced.
    expect(verdict("We moved from npm to pnpm", "Use npm; packages go to the npm registry")).toBe("supersede");
    expect(verdict("We replaced Redux with Zustand", "Client state lives in a Redux store")).toBe("supersede");
    expect(verdict("Replaced Redux with Zustand for client state", "Client state lives in a Redux store")).toBe(
      "supersede",
    );
  });

  it("asks a person when the older text names both the old and the new thing", () => {
    expect(judgeSupersession("We moved from npm to pnpm", "npm and pnpm both work for installs")).toEqual({
      verdict: "review",
      reason: 'change statement: "npm" replaced by "pnpm"; this memory names both',
    });
  });

  it("asks a person when X is now Y and the older text says something of the same sort about X", () => {
    // A tool of Y's kind, or another word the newer memory also says.
    expect(verdict("The database is now Postgres 16", "The database runs on MySQL 8 in docker-compose")).toBe("review");
    expect(
      verdict(
        "The dashboard now uses TanStack Router with file-based routes",
        "Routing in the dashboard uses React Router v6 with all routes in one file",
      ),
    ).toBe("review");
  });

  it("reads what X now runs with, builds with, deploys to or goes through", () => {
    expect(changeStatements("logslice tests now run with cargo-nextest")).toEqual([
      {
        kind: "reassigned",
        subject: "logslice tests",
        replacement: "cargo-nextest",
        startsSentence: true,
        relation: "run with",
      },
    ]);
    expect(changeStatements("Deploys now go through Argo CD")).toEqual([
      { kind: "reassigned", subject: "Deploys", replacement: "Argo CD", startsSentence: true, relation: "go through" },
    ]);
    expect(verdict("logslice tests now run with cargo-nextest", "Run the logslice test suite with `cargo test`")).toBe(
      "review",
    );
  });

  it("replaces a short statement linking X to something by the same verb", () => {
    expect(verdict("Deploys now go through Fly.io", "Deploys go through Heroku")).toBe("supersede");
    expect(verdict("Deploy now goes through Argo CD", "The deploy goes through a Jenkins job")).toBe("supersede");
    expect(verdict("The API now points to the EU cluster", "The API points to the US cluster")).toBe("supersede");
    // X uses many things at once: "uses" links the same attribute only for a tool of Y's kind.
    expect(verdict("The worker now uses Postgres", "The worker uses MySQL")).toBe("supersede");
    expect(verdict("The worker now uses Postgres", "The worker uses Express")).not.toBe("supersede");
  });

  it("leaves alone a memory that mentions X about another thing of it", () => {
    // Still true after the move: how backups run, where the config lives.
    expect(verdict("The database is now Postgres 16", "Back up the database nightly with pg_dump")).toBeUndefined();
    expect(
      verdict(
        "notes-cli was ported to Bun: run it with `bun run src/main.ts`",
        "notes-cli reads ~/.config/notes-cli/config.toml; NOTES_DIR overrides it",
      ),
    ).toBeUndefined();
  });

  it("reads a number raised or lowered as a change only where both memories say what it is", () => {
    expect(verdict("We reduced the worker pool from 10 to 5", "Retry a failed upload 10 times")).toBeUndefined();
    expect(verdict("We reduced the upload pool from 10 to 5", "Retry a failed upload 10 times")).toBe("review");
  });
});

describe("a change undone", () => {
  it.each([
    ["We switched back to npm", "We moved from npm to pnpm"],
    ["We moved from pnpm back to npm", "We moved from npm to pnpm"],
    ["We use npm for package installs again", "We moved from npm to pnpm"],
    ["We are back on MySQL for the billing database", "We migrated the billing database from MySQL to Postgres 16"],
    ["We reverted to webpack because vite broke the legacy plugin", "Migrated the build from webpack to vite"],
    ["Client state uses Redux again, with Redux Toolkit", "We dropped Redux for client state"],
  ])("%s supersedes %s", (newer, older) => {
    expect(judgeSupersession(newer, older)?.verdict).toBe("supersede");
  });

  it("asks a person when the newer memory uses the given-up thing without saying it came back", () => {
    expect(judgeSupersession("Unit tests run with Jest", "We moved from Jest to Vitest")).toEqual({
      verdict: "review",
      reason:
        'change undone?: "Jest" is in use again, which this memory says was replaced by "Vitest"; the newer memory does not say it came back',
    });
  });

  it.each([
    ["The Jest config was deleted", "We moved from Jest to Vitest"],
    ["Run npx jest again after regenerating the snapshots", "We moved from Jest to Vitest"],
    ["npm was slower than pnpm with our monorepo", "We moved from npm to pnpm"],
    ["Never use npm here", "We moved from npm to pnpm"],
  ])("%s leaves %s alone: it tells of the old thing, it does not use it", (newer, older) => {
    expect(judgeSupersession(newer, older)).toBeUndefined();
  });
});

describe("the same tool at another version (e)", () => {
  it.each([
    [
      "The EKS clusters are on Kubernetes 1.30; upgrades go one minor at a time",
      "Both EKS clusters run Kubernetes 1.27.",
    ],
    [
      "field-app runs Expo SDK 52 with React Native 0.76 and the New Architecture enabled",
      "field-app is on Expo SDK 50 with React Native 0.73.",
    ],
    ["Production DAGs now run Airflow 2.9.3 on MWAA", "Production DAGs run on MWAA with Airflow 2.7."],
  ])("%s supersedes %s", (newer, older) => {
    expect(judgeSupersession(newer, older)).toEqual({
      verdict: "supersede",
      reason: expect.stringMatching(/^(?:version|value) change: /),
    });
  });

  it("names the tool and both versions", () => {
    expect(judgeSupersession("field-app runs Expo SDK 52", "field-app is on Expo SDK 50.")?.reason).toBe(
      "version change: expo sdk 50 -> 52",
    );
  });

  it("asks a person when the older memory says more than the version, or the version is a plan or a failure", () => {
    expect(
      verdict(
        "Staging and production for payments-api run PostgreSQL 16; the ledger query depends on MERGE",
        "The local docker-compose database and the staging RDS instance for payments-api are PostgreSQL 14.",
      ),
    ).toBe("review");
    expect(
      verdict("We will move the EKS clusters to Kubernetes 1.31 next quarter", "The EKS clusters run Kubernetes 1.30"),
    ).toBe("review");
    expect(verdict("EKS cluster upgrades failed on Kubernetes 1.31", "The EKS clusters run Kubernetes 1.30")).toBe(
      "review",
    );
  });

  it("asks a person rather than hide a command, a path or a port only the older memory says", () => {
    const older = "The API tests run with npm run test:api against a local Postgres 14";
    expect(judgeSupersession("The API tests now run against Postgres 16 in Docker", older)).toEqual({
      verdict: "review",
      reason: 'version change: postgres 14 -> 16; only this memory says "test:api"',
    });
    // Restated, or only the old version written another way: nothing is lost.
    expect(verdict("The API tests (npm run test:api) now run against Postgres 16", older)).toBe("supersede");
    expect(
      verdict("The API tests now run against Postgres 16", "The API tests run against Postgres 14 (postgres:14)"),
    ).toBe("supersede");
  });

  it("leaves alone the same tool in another place, a tool written with both versions, and what is not a version", () => {
    // One project, two runtimes: nothing else in common.
    expect(verdict("The billing Lambda runs on Node 18", "The frontend builds with Node 20")).toBeUndefined();
    // The newer memory says both: a pitfall about the old version, not a move.
    expect(
      verdict("Local iOS builds need Xcode 16; with Xcode 15 they fail", "iOS builds use Xcode 15"),
    ).toBeUndefined();
    // Dates, numbered things, quantities and a sentence's first word are not versions.
    expect(verdict("The payments release is on March 12", "The payments release is on March 3 this year")).not.toBe(
      "supersede",
    );
    expect(
      verdict("Service 5 runs Node 20 in the EU region", "Service 3 runs Node 18 in the EU region"),
    ).toBeUndefined();
    expect(
      verdict("Staging uploads wait 60 seconds for Postgres", "Staging uploads wait 30 seconds for Postgres"),
    ).not.toMatch(/version/);
  });

  it("reads two releases of the project as two events, not a tool that moved on", () => {
    expect(verdict("Release 2.4.0 shipped on May 3", "Release 2.3.0 shipped on April 2")).toBeUndefined();
  });

  it("leaves alone a statement negated where it names the tool, and only there", () => {
    expect(
      verdict("The EKS clusters do not run Kubernetes 1.30 yet", "The EKS clusters run Kubernetes 1.29"),
    ).toBeUndefined();
    expect(
      verdict("The EKS clusters run Kubernetes 1.30", "The EKS clusters run Kubernetes 1.29 (not EKS Anywhere)"),
    ).toBe("supersede");
  });

  it("asks a person when the older memory has a clause the newer one does not touch", () => {
    expect(judgeSupersession("CI runs Node 22 on Ubuntu", "CI runs Node 20 on Ubuntu; never use nvm there")).toEqual({
      verdict: "review",
      reason: 'version change: node 20 -> 22; only this memory says "never use nvm there"',
    });
  });
});

describe("value change (b)", () => {
  it("reads records of two dated occasions as two facts; a date moved alone stays a change", () => {
    expect(
      verdict("The staging deploy took 14 minutes on 2026-05-02", "The staging deploy took 9 minutes on 2026-04-20"),
    ).toBeUndefined();
    expect(
      verdict("The launch review is set for 2026-05-12 in room B", "The launch review is set for 2026-05-05 in room B"),
    ).toBe("supersede");
  });

  it.each([
    ["The API listens on port 8080", "The API listens on port 3000", "value change: 3000 -> 8080"],
    ["The API now listens on port 8080 locally", "The API listens on port 3000 locally", "value change: 3000 -> 8080"],
    [
      "Retry failed uploads 5 times with a 500 ms backoff",
      "Retry failed uploads 3 times with a 500 ms backoff",
      "value change: 3 -> 5",
    ],
    [
      "Build the API docs with `make docs-html`",
      "Build the API docs with `make docs`",
      "value change: make docs -> make docs-html",
    ],
    // A failure's condition is a setting like any other.
    [
      "The build fails when the heap limit is below 8192 MB",
      "The build fails when the heap limit is below 4096 MB",
      "value change: 4096 -> 8192",
    ],
    [
      "The staging config lives in config/staging.yaml",
      "The staging config lives in config/stage.yml",
      "value change: config/stage.yml -> config/staging.yaml",
    ],
  ])("%s supersedes %s", (newer, older, reason) => {
    expect(judgeSupersession(newer, older)).toEqual({ verdict: "supersede", reason });
  });

  it.each([
    // Two different attributes of one thing.
    ["The API timeout is 30 seconds", "The API port is 8080"],
    // The same attribute of two different things.
    ["The worker listens on port 4000", "The API listens on port 3000"],
    // A value added next to the old one.
    ["The API listens on ports 3000 and 3001", "The API listens on ports 3000"],
    // Unrelated statements that both hold a number.
    ["Deploys run on Fridays at 16:00", "Tests run on Node 20"],
  ])("%s does not supersede %s", (newer, older) => {
    expect(verdict(newer, older)).not.toBe("supersede");
  });

  it("asks a person when only two subject words are shared", () => {
    expect(judgeSupersession("Use Node 22", "Use Node 20")?.verdict).toBe("review");
    expect(
      judgeSupersession("Generate the client with `make client --lang go`", "Generate the client with `make client`")
        ?.verdict,
    ).toBe("review");
  });

  it.each([
    ["Command that worked: `pnpm lint`", "Command that worked: `pnpm test`"],
    ["Command that worked: `docker compose up -d mock`", "Command that worked: `pnpm test`"],
    ["Command that worked: `pnpm test:e2e`", "Command that worked: `pnpm test`"],
    // Commands that worked in one package: another command working leaves the first one true.
    [
      "Command that worked: `cd packages/coding-agent && npm run check`",
      "Command that worked: `cd packages/coding-agent && npm run build`",
    ],
    [
      "Command that worked: `npm test -- --run src/reasoning.test.ts`",
      'Command that worked: `npm test -- --run src/reasoning.test.ts -t "Compaction Config"`',
    ],
    ["`make docs --html` succeeded after the fix", "`make docs` succeeded after the fix"],
    [
      '`pnpm test:e2e` failed with "Error: connect ECONNREFUSED 127.0.0.1:4010"; `pnpm test:e2e` later succeeded.',
      '`pnpm test` failed with "FAIL test/forecast.test.ts"; `pnpm test` later succeeded.',
    ],
    // Two failures of one command, each seen and still true.
    [
      '`pnpm test` failed with "FAIL test/forecast.test.ts"; `pnpm test` later succeeded.',
      '`pnpm test` failed with "FAIL test/search.test.ts"; `pnpm test` later succeeded.',
    ],
    [
      'The deploy fails with "permission denied" unless AWS_PROFILE is set',
      'The deploy fails with "token expired" unless AWS_PROFILE is set',
    ],
  ])("a list of commands is no change: %s against %s", (newer, older) => {
    expect(judgeSupersession(newer, older)).toBeUndefined();
  });
});

describe("a tool swapped for one of its kind (d)", () => {
  it.each([
    ["Tests run with vitest now", "Tests run with jest", "tool change: jest -> vitest"],
    ["Install the dependencies with pnpm instead", "Install the dependencies with yarn", "tool change: yarn -> pnpm"],
  ])("%s supersedes %s when it says it is a change", (newer, older, reason) => {
    expect(judgeSupersession(newer, older)).toEqual({ verdict: "supersede", reason });
  });

  it("asks a person when the newer one does not say so: tools of one kind often live side by side", () => {
    expect(judgeSupersession("Check the Python code with mypy", "Check the Python code with ruff")).toEqual({
      verdict: "review",
      reason: "tool change: ruff -> mypy; the newer memory does not say it replaces the older",
    });
  });

  it.each([
    // Two things differ, not just the tool.
    ["The worker stores jobs in MySQL", "The API stores sessions in Postgres"],
    // Not tools of one kind.
    ["Tests run with vitest now", "Tests run in CI"],
  ])("%s leaves %s alone", (newer, older) => {
    expect(judgeSupersession(newer, older)).toBeUndefined();
  });
});

describe("numbered names", () => {
  it.each([
    // The number says which service, worker or step: two facts, not a fact and its update.
    ["Service 5 stores its data in Postgres", "Service 3 stores its data in Postgres"],
    ["Worker 4 runs the nightly export", "Worker 2 runs the nightly export"],
    ["Service 5 listens on port 4005", "Service 3 listens on port 4003"],
    ["Step 4 of the release needs a manual approval", "Step 2 of the release needs a manual approval"],
    ["Issue #57 is fixed on main", "Issue #42 is fixed on main"],
    // A change stated about one of them says nothing about another.
    ["Service 3 is now on port 4100", "Service 5 listens on port 4005"],
    ["Service 3 moved from Postgres to MySQL", "Service 5 stores its data in Postgres"],
    ["Service 3 no longer uses Redis", "Service 5 uses Redis for sessions"],
    ["Worker 2 does not run the nightly export", "Worker 4 runs the nightly export"],
  ])("%s neither supersedes %s nor asks about it", (newer, older) => {
    expect(judgeSupersession(newer, older)).toBeUndefined();
  });

  it.each([
    // The same numbered thing with a new value is an update.
    ["Service 3 listens on port 4100", "Service 3 listens on port 4003", "value change: 4003 -> 4100"],
    // A number after a tool's name is its version, the value an upgrade changes.
    ["The app uses Vue 3 for the dashboard", "The app uses Vue 2 for the dashboard", "value change: 2 -> 3"],
    ["Node 20 is required to build the CLI", "Node 18 is required to build the CLI", "value change: 18 -> 20"],
  ])("%s supersedes %s", (newer, older, reason) => {
    expect(judgeSupersession(newer, older)).toEqual({ verdict: "supersede", reason });
  });

  it("still applies a change stated about the numbered thing itself", () => {
    expect(judgeSupersession("Service 3 no longer uses Redis", "Service 3 uses Redis for sessions")?.verdict).toBe(
      "supersede",
    );
  });
});

describe("polarity flip (c)", () => {
  it.each([
    ["never use npm here anymore", "always use npm"],
    ["Never use npm here anymore; always use pnpm", "Always use npm in this repo, and run the tests with npm test"],
    ["Do not squash commits when merging", "Squash commits when merging"],
    ["Run the linter before every commit", "Don't run the linter before every commit"],
  ])("%s supersedes %s", (newer, older) => {
    expect(judgeSupersession(newer, older)).toEqual({
      verdict: "supersede",
      reason: expect.stringMatching(/^polarity flip: /),
    });
  });

  it.each([
    ["No, we don't use npm in this repo", "We use npm in this repo"],
    ["Never deploy Billing on Fridays", "Deploy Billing on Fridays"],
    ["Run the tests with pnpm and never use npm", "Always use npm"],
  ])("%s supersedes %s, whatever else the text says", (newer, older) => {
    expect(judgeSupersession(newer, older)?.verdict).toBe("supersede");
  });

  it("does not fire on different subjects sharing one word", () => {
    expect(judgeSupersession("Never commit secrets", "Always commit the lockfile")).toBeUndefined();
  });

  // Turns of two people talking (LoCoMo's, as the remember doors store them): read as statements of
  // fact, 49 of them were superseded and 304 pairs flagged on the development conversations.
  it.each([
    // An interjection's "no" negates nothing.
    [
      "Caroline: No worries, Mel! Your friendship means so much to me.",
      "Caroline: Hey Mel, what's up? Been a busy week.",
    ],
    // Names say who, not what: the same two people are not the same action.
    ["Jon: I won't give up, Gina. The studio opens next week.", "Jon: Cool, Gina! Thanks for the tip."],
    // A question states nothing.
    ["I didn't dress as any character.", "Did you dress up as any character?"],
    // "But instead of giving up" names no replacement.
    [
      "But instead of giving up, I turned it into a learning experience.",
      "Giving it my all every time I'm on the court. But I also want to make a difference.",
    ],
    // A negation after "and" is its own clause.
    ["Keep going and never give up", "Keep going"],
    // Two dated occasions, not one value changed.
    [
      "(5:54 pm on 9 November, 2022) Nate: The tournament went well",
      "(3:56 pm on 4 November, 2022) Nate: The tournament went well",
    ],
  ])("%s leaves %s alone", (newer, older) => {
    expect(judgeSupersession(newer, older)).toBeUndefined();
  });

  it("asks a person when the action itself differs beyond the negation", () => {
    expect(judgeSupersession("Don't use npm to publish packages", "use npm to install packages")?.verdict).toBe(
      "review",
    );
  });
});

describe("which of two memories is newer", () => {
  it("is the later occurredAt, else the later creation, else the higher id", () => {
    const at = (id: number, occurredAt: number | null, createdAt: number) => ({ id, occurredAt, createdAt });
    expect(isNewer(at(1, 200, 10), at(2, 100, 20))).toBe(true);
    expect(isNewer(at(1, null, 30), at(2, null, 20))).toBe(true);
    expect(isNewer(at(2, null, 20), at(1, null, 20))).toBe(true);
    expect(isNewer(at(1, null, 20), at(2, null, 20))).toBe(false);
  });
});
