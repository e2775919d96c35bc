import { singulars } from "./codeVocabulary.js";
import { longestRuns } from "./longestRuns.js";

/**
 * Kinds of tool and the tools of each kind. A question often names the kind ("which package manager
 * installs the dependencies?", "what runtime does it run on?") while the memory names the tool ("install
 * with pnpm", "ported to Deno"), and no spelling of one reaches the other. Written from general knowledge of
 * the software ecosystem, not from any evaluation set; each kind lists the widely used tools of several
 * languages, so that no one project's choices decide what a kind reaches.
 *
 * One direction only: a kind reaches its tools, a tool never reaches its kind or the other tools of
 * its kind (a question about npm is not about yarn). A kind is a phrase of lowercase words as the
 * tokenizer sees them; a tool with a hyphen is its word run ("golangci-lint" is "golangci lint").
 *
 * Left out on purpose: kinds whose name is an everyday word in coding memory with a wider sense than
 * the tool choice ("library", "framework", "tool", "language", "server", "client", "queue", "cache",
 * "editor"), and tools whose name is an everyday word of coding memory ("make", "go", "task", "just",
 * "black", "fetch", "flow", "echo", "vault", "tracing", "got"): a question about the kind would reach
 * every memory that uses the word. "node" stays as a runtime: only a question about runtimes reaches it.
 */
const KINDS: readonly string[] = [
  "package manager | npm, pnpm, yarn, bun, pip, pipx, poetry, uv, pipenv, conda, cargo, composer, bundler, gem, maven, gradle, nuget, homebrew, brew, apt",
  "runtime | nodejs, node, bun, deno, cpython, pypy, jvm, graalvm, wasmtime",
  "python environment | venv, virtualenv, poetry, uv, pipenv, conda, pyenv, pdm",
  "virtual environment | venv, virtualenv, poetry, uv, pipenv, conda, pdm",
  "version manager | nvm, fnm, volta, asdf, mise, pyenv, rbenv, rustup, sdkman, goenv",
  "test runner | jest, vitest, mocha, ava, jasmine, karma, pytest, unittest, rspec, minitest, phpunit, junit, playwright, cypress, nextest",
  "test framework | jest, vitest, mocha, ava, jasmine, pytest, unittest, rspec, minitest, phpunit, junit, testng, xunit, nunit, playwright, cypress",
  "bundler | webpack, vite, rollup, esbuild, parcel, rspack, turbopack, tsup, browserify",
  "build tool | webpack, vite, rollup, esbuild, parcel, turborepo, nx, bazel, gradle, maven, cmake, meson, ninja, sbt",
  "linter | eslint, biome, oxlint, tslint, ruff, flake8, pylint, mypy, golangci lint, staticcheck, clippy, rubocop, shellcheck, stylelint, hadolint",
  "formatter | prettier, biome, dprint, ruff, autopep8, yapf, isort, gofmt, goimports, rustfmt, clang format, rubocop",
  "type checker | tsc, typescript, mypy, pyright, pyre, sorbet",
  "database | postgres, postgresql, mysql, mariadb, sqlite, mongodb, mongo, redis, dynamodb, cassandra, clickhouse, cockroachdb, oracle, mssql, snowflake, bigquery, elasticsearch",
  "orm | prisma, drizzle, typeorm, sequelize, mikroorm, kysely, knex, sqlalchemy, peewee, tortoise, activerecord, hibernate, gorm, diesel, sqlx, ecto",
  "migration tool | alembic, flyway, liquibase, knex, prisma, goose, dbmate, sqitch",
  "web framework | express, fastify, koa, hapi, nestjs, hono, nextjs, nuxt, remix, sveltekit, django, flask, fastapi, rails, sinatra, laravel, symfony, spring boot, gin, actix, axum, phoenix",
  "message broker | kafka, redpanda, rabbitmq, nats, sqs, sns, pubsub, activemq, pulsar, kinesis",
  "ci service | github actions, gitlab ci, circleci, jenkins, buildkite, travis, teamcity, azure pipelines",
  "container runtime | docker, podman, containerd, colima, orbstack",
  "monorepo tool | turborepo, nx, lerna, bazel",
  "http client | axios, ky, undici, superagent, requests, httpx, aiohttp, urllib3, reqwest, okhttp, resty",
  "logging library | pino, winston, bunyan, loguru, structlog, logrus, zerolog, log4j, logback, serilog",
  "state management | redux, zustand, mobx, jotai, recoil, pinia, vuex, xstate, tanstack query, react query, swr",
  "secret manager | 1password, doppler, sops, bitwarden, secrets manager, keyvault",
  "infrastructure as code | terraform, opentofu, pulumi, cloudformation, cdk, ansible, crossplane",
];

/** A kind the query names, and the tools of that kind. */
export interface KindMembers {
  /** The kind as written in the query, its words joined by spaces. */
  phrase: string;
  /** The tools of the kind, each as words joined by spaces. */
  members: string[];
}

const BY_KIND: ReadonlyMap<string, readonly string[]> = new Map(
  KINDS.map((line) => {
    const [kind = "", members = ""] = line.split("|").map((part) => part.trim());
    return [kind, members.split(",").map((member) => member.trim().replace(/-/g, " "))] as const;
  }),
);

const LONGEST_KIND = Math.max(...[...BY_KIND.keys()].map((kind) => kind.split(" ").length));

/** The kind a run of words names, with the plural on its last word ("package managers", "databases"). */
function membersOf(run: readonly string[]): readonly string[] | undefined {
  const head = run.slice(0, -1);
  const last = run[run.length - 1] ?? "";
  for (const form of singulars(last)) {
    const members = BY_KIND.get([...head, form].join(" "));
    if (members) return members;
  }
  return undefined;
}

/**
 * The kinds of tool a run of lowercase words names (as `words()` returns them), longest first and
 * not overlapping: "which test runner" names "test runner", not a bare "runner".
 */
export function kindsNamed(words: readonly string[]): KindMembers[] {
  return longestRuns(words, { longest: LONGEST_KIND, shortest: 1, lookup: membersOf }).map(({ run, value }) => ({
    phrase: run.join(" "),
    members: [...value],
  }));
}

/** Kinds of each single-word tool, keyed by the tool as `form` writes it; built once per `form`. */
const kindsByTool = new WeakMap<(word: string) => string, ReadonlyMap<string, ReadonlySet<string>>>();

function toolIndex(form: (word: string) => string): ReadonlyMap<string, ReadonlySet<string>> {
  let index = kindsByTool.get(form);
  if (!index) {
    const built = new Map<string, Set<string>>();
    for (const [kind, members] of BY_KIND)
      for (const member of members) {
        if (member.includes(" ")) continue;
        const key = form(member);
        built.set(key, (built.get(key) ?? new Set()).add(kind));
      }
    index = built;
    kindsByTool.set(form, index);
  }
  return index;
}

const identity = (word: string) => word;

/**
 * Whether two words are tools of one kind (npm and pnpm, jest and vitest, mysql and postgres): one
 * can replace the other in the same statement. Both are compared as `form` writes them (a stemmer,
 * for stemmed words). Unlike `kindsNamed`, this reads the table from the tools' side, and only to ask
 * whether two named tools are interchangeable: it never expands a query.
 */
export function oneKindOfTool(a: string, b: string, form: (word: string) => string = identity): boolean {
  const index = toolIndex(form);
  const kindsOfA = index.get(a);
  const kindsOfB = index.get(b);
  if (!kindsOfA || !kindsOfB) return false;
  for (const kind of kindsOfA) if (kindsOfB.has(kind)) return true;
  return false;
}

/** Whether the lower-case word is one of the table's tools ("node", "postgres", "pnpm"). */
export function isKnownTool(word: string): boolean {
  return toolIndex(identity).has(word);
}

/**
 * The other single-word tools of the kinds a tool belongs to ("pnpm" -> npm, yarn, bun, ...): what a
 * statement that moved to it may have moved from.
 */
export function toolsOfItsKinds(tool: string): string[] {
  const kinds = toolIndex(identity).get(tool);
  if (!kinds) return [];
  const out = new Set<string>();
  for (const kind of kinds) for (const member of BY_KIND.get(kind) ?? []) if (!member.includes(" ")) out.add(member);
  out.delete(tool);
  return [...out];
}

/** The kinds a lower-case single-word tool belongs to ("pnpm" -> package manager); none for other words. */
export function kindsOfTool(word: string): readonly string[] {
  const kinds = toolIndex(identity).get(word);
  return kinds ? [...kinds] : [];
}
