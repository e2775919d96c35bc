import { mulberry32 } from "./syntheticCorpus.js";

/**
 * Deterministic coding memories for the bulk-remember benchmark: sentences of the kinds a developer
 * keeps about a codebase (ports, commands, pinned versions, owners, flags, timeouts, paths), written
 * from templates over several hundred services and their values, so that a run stores thousands of
 * different subjects, as a real import does, not one pseudo-word soup. Written for this benchmark;
 * nothing is taken from a benchmark corpus.
 */
export interface GeneratedMemory {
  content: string;
  occurredAt: string;
  /** What the memory means, for scoring the lifecycle: bench-side only, never written to cairn. */
  truth: Truth;
}

/**
 * `slot`: the fact a memory sets (template and subject); a later memory of the same slot is its update.
 * `current`: things it presents as in use; `retires`: things a later memory says were left, which
 * updates every earlier memory presenting them as current.
 */
export interface Truth {
  slot: string;
  current: string[];
  retires: string[];
}

const DOMAINS = [
  "billing",
  "checkout",
  "search",
  "inventory",
  "payments",
  "auth",
  "notifications",
  "reporting",
  "ledger",
  "catalog",
  "shipping",
  "pricing",
  "analytics",
  "onboarding",
  "invoicing",
  "audit",
  "media",
  "upload",
  "export",
  "scheduler",
  "profile",
  "sessions",
  "feed",
  "chat",
  "metrics",
  "geo",
  "tax",
  "refunds",
  "loyalty",
  "coupons",
  "warehouse",
  "orders",
  "cart",
  "reviews",
  "ranking",
  "recommend",
  "email",
  "sms",
  "identity",
  "webhooks",
];
const ROLES = ["api", "worker", "service", "gateway", "indexer", "cron", "proxy", "consumer", "sync", "web"];
const ENVS = ["dev", "staging", "production", "qa", "canary", "eu-west", "us-east", "preview"];
const LIBRARIES = [
  "express",
  "fastify",
  "koa",
  "zod",
  "prisma",
  "drizzle-orm",
  "kysely",
  "pg",
  "redis",
  "ioredis",
  "bullmq",
  "axios",
  "undici",
  "react",
  "vue",
  "svelte",
  "next",
  "vite",
  "webpack",
  "esbuild",
  "jest",
  "vitest",
  "mocha",
  "playwright",
  "cypress",
  "lodash",
  "dayjs",
  "luxon",
  "pino",
  "winston",
  "sentry",
  "opentelemetry",
  "graphql",
  "apollo-server",
  "trpc",
  "stripe",
  "aws-sdk",
  "sharp",
  "typeorm",
  "sequelize",
  "django",
  "flask",
  "fastapi",
  "sqlalchemy",
  "pydantic",
  "celery",
  "pytest",
  "tokio",
  "serde",
  "actix-web",
  "axum",
  "sqlx",
  "gin",
  "echo",
  "cobra",
  "viper",
  "spring-boot",
  "hibernate",
];
const RUNNERS = ["npx vitest run", "npx jest", "pytest -q", "go test", "cargo test", "npm test --", "pnpm test"];
const FORMATTERS = ["prettier", "biome", "black", "ruff format", "gofmt", "rustfmt", "eslint --fix"];
const LANGUAGES = ["TypeScript", "Python", "Go", "Rust", "Kotlin", "Java", "Ruby", "Elixir"];
const PEOPLE = [
  "Ana",
  "Bruno",
  "Chen",
  "Dara",
  "Eli",
  "Farah",
  "Gus",
  "Hana",
  "Ivo",
  "Jae",
  "Kofi",
  "Lena",
  "Mateo",
  "Nia",
  "Omar",
  "Priya",
  "Quinn",
  "Rosa",
  "Sven",
  "Tara",
  "Uma",
  "Viktor",
  "Wen",
  "Yara",
  "Zoe",
];
const BRANCHES = ["main", "release", "deploy", "stable", "trunk", "prod", "hotfix", "next"];
const SINKS = ["Loki", "Datadog", "CloudWatch", "Elasticsearch", "stdout", "Splunk", "Honeycomb"];
const LEVELS = ["debug", "info", "warn", "error"];
const CI = ["GitHub Actions", "GitLab CI", "Buildkite", "CircleCI", "Jenkins", "Drone"];
const BASES = ["node:22-alpine", "python:3.12-slim", "golang:1.23", "rust:1.82", "distroless/static", "ubuntu:24.04"];
const VAULTS = ["Vault", "AWS Secrets Manager", "1Password", "SOPS files", "GCP Secret Manager"];
const BUNDLERS = ["esbuild", "webpack", "vite", "rollup", "tsup", "parcel"];
const COLUMNS = ["user_id", "created_at", "status", "tenant_id", "email", "order_id", "sku", "updated_at"];
const EVENTS = ["created", "updated", "deleted", "failed", "retried", "expired", "archived"];
const SYMPTOMS = [
  "requests hang",
  "duplicate rows appear",
  "the worker leaks memory",
  "timestamps shift by an hour",
  "the cache returns stale entries",
  "uploads over 10 MB fail",
  "the job runs twice",
];
const CONDITIONS = [
  "the clock crosses midnight UTC",
  "two pods start together",
  "the queue is empty",
  "a tenant has no plan",
  "the token expires mid-request",
  "the payload has unicode keys",
];
const FIXES = [
  "an advisory lock",
  "a unique index",
  "streaming the body",
  "normalising to UTC",
  "a version check",
  "idempotency keys",
  "closing the cursor",
];

type Pick = <T>(list: readonly T[]) => T;

/**
 * What a template wrote: the sentence, and (bench-side only, never given to cairn) the slot it fills:
 * the thing and attribute a person would say it sets, so that a later memory of the same slot with
 * another value is that fact's update and every other pair is two facts. A relation that holds many
 * values at once (a table's indexes, bugs seen) puts its value in the slot: no later memory updates it.
 */
interface Written {
  text: string;
  slot: string[];
}

/** Each template writes one memory about a fresh draw of its subject and values. */
const TEMPLATES: Array<(p: Pick, n: (max: number) => number, s: () => string) => Written> = [
  (p, n, s) => {
    const [svc, port, env] = [s(), 3000 + n(6000), p(ENVS)];
    return { text: `The ${svc} service listens on port ${port} in ${env}.`, slot: [svc, env] };
  },
  (p, _n, s) => {
    const [svc, runner, dir, sub] = [s(), p(RUNNERS), p(["src", "tests", "pkg", "internal"]), s()];
    return { text: `Run the ${svc} tests with \`${runner} ${dir}/${sub}\`.`, slot: [svc] };
  },
  (p, _n, s) => {
    const [svc, variable, suffix] = [s(), envVar(s()), p(["DB_URL", "DSN", "DATABASE"])];
    return { text: `${svc} reads its database URL from the ${variable}_${suffix} variable.`, slot: [svc] };
  },
  (p, n, s) => {
    const [lib, version, svc, other] = [p(LIBRARIES), `${1 + n(9)}.${n(30)}.${n(12)}`, s(), p(LIBRARIES)];
    return { text: `We pin ${lib} to ${version} in ${svc} until the ${other} upgrade lands.`, slot: [lib, svc] };
  },
  (_p, n, s) => {
    const [from, to, times, backoff] = [s(), s(), 2 + n(6), 50 * (1 + n(20))];
    return { text: `Calls from ${from} to ${to} retry ${times} times with ${backoff} ms backoff.`, slot: [from, to] };
  },
  (p, _n, s) => {
    const [svc, env, branch] = [s(), p(ENVS), p(BRANCHES)];
    return { text: `Deploys of ${svc} to ${env} go out from the ${branch} branch.`, slot: [svc, env] };
  },
  (p, _n, s) => {
    // Who reviews a path: one reviewer per folder (a later name is a handover); a person reviews many.
    const [person, svc, dir] = [p(PEOPLE), s(), p(["handlers", "models", "jobs", "routes"])];
    return { text: `${person} reviews every change under src/${svc}/${dir}.`, slot: [svc, dir] };
  },
  (_p, n, s) => {
    const [svc, seconds] = [s(), 30 * (1 + n(120))];
    return { text: `The ${svc} cache keeps entries for ${seconds} seconds.`, slot: [svc] };
  },
  (p, _n, s) => {
    const [language, svc, formatter] = [p(LANGUAGES), s(), p(FORMATTERS)];
    return { text: `Format ${language} code in ${svc} with ${formatter} before committing.`, slot: [language, svc] };
  },
  (p, _n, s) => {
    const text = `The ${tableOf(s())} table has an index on (${p(COLUMNS)}, ${p(COLUMNS)}).`;
    return { text, slot: [text] };
  },
  (p, _n, s) => {
    const [svc, sink, level, env] = [s(), p(SINKS), p(LEVELS), p(ENVS)];
    return { text: `${svc} logs go to ${sink} at ${level} level in ${env}.`, slot: [svc, env] };
  },
  (p, n, s) => {
    const [flag, state, svc, env] = [flagOf(s(), n), p(["on", "off"]), s(), p(ENVS)];
    return { text: `The feature flag ${flag} is ${state} for ${svc} in ${env}.`, slot: [flag, svc, env] };
  },
  (p, _n, s) => {
    const [svc, bundler, out] = [s(), p(BUNDLERS), s()];
    return { text: `The ${svc} frontend is bundled with ${bundler} into dist/${out}.`, slot: [svc] };
  },
  (p, n, s) => {
    const [svc, folder, newest, env] = [s(), s(), n(400), p(ENVS)];
    return {
      text: `Migrations for ${svc} live in db/migrations/${folder} and the newest is number ${newest}; apply them with \`make migrate-${env}\`.`,
      slot: [svc],
    };
  },
  (_p, n, s) => {
    const [from, to, seconds] = [s(), s(), 1 + n(60)];
    return { text: `Requests from ${from} to ${to} time out after ${seconds} seconds.`, slot: [from, to] };
  },
  (p, _n, s) => {
    const [svc, event, topic, topicEvent] = [s(), p(EVENTS), s(), p(EVENTS)];
    return { text: `${svc} publishes order ${event} events to the ${topic}.${topicEvent} topic.`, slot: [svc, event] };
  },
  (p, _n, s) => {
    const [svc, env, vault, path, pathEnv] = [s(), p(ENVS), p(VAULTS), s(), p(ENVS)];
    return { text: `Secrets for ${svc} in ${env} are kept in ${vault} under ${path}/${pathEnv}.`, slot: [svc, env] };
  },
  (p, _n, s) => {
    const [svc, base] = [s(), p(BASES)];
    return { text: `The ${svc} container image is built from ${base}.`, slot: [svc] };
  },
  (p, n, s) => {
    const [svc, ci, jobs] = [s(), p(CI), 1 + n(16)];
    return { text: `CI for ${svc} runs on ${ci} with ${jobs} parallel jobs.`, slot: [svc] };
  },
  (p, n, s) => {
    const [svc, limit, per] = [s(), 10 * (1 + n(200)), p(["user", "tenant", "IP address", "API key"])];
    return { text: `The ${svc} rate limit is ${limit} requests per minute per ${per}.`, slot: [svc, per] };
  },
  (p, _n, s) => {
    const [person, svc] = [p(PEOPLE), s()];
    return { text: `${person} is the escalation contact when ${svc} pages at night.`, slot: [svc] };
  },
  (p, _n, s) => {
    const [svc, path] = [s(), p(["healthz", "ready", "live", "status"])];
    return { text: `The ${svc} health check is served at /${path} on the admin port.`, slot: [svc] };
  },
  (p, _n, s) => {
    const text = `Bug in ${s()}: ${p(SYMPTOMS)} when ${p(CONDITIONS)}; fixed with ${p(FIXES)}.`;
    return { text, slot: [text] };
  },
  (p, _n, s) => {
    const [svc, how, person] = [s(), p(["squash-merged", "rebased", "merged with a merge commit"]), p(PEOPLE)];
    return { text: `The user wants ${svc} pull requests ${how} after ${person} approves.`, slot: [svc] };
  },
  (p, n, s) => {
    const [svc, days, what] = [s(), 1 + n(90), p(["audit logs", "metrics", "traces", "backups", "snapshots"])];
    return { text: `${svc} keeps ${days} days of ${what}.`, slot: [svc, what] };
  },
];

function envVar(service: string): string {
  return service.toUpperCase().replace(/-/g, "_");
}
function tableOf(service: string): string {
  return service.replace(/-/g, "_");
}
function flagOf(service: string, n: (max: number) => number): string {
  return `${service.split("-")[0]}_${["beta", "v2", "fast_path", "new_ui", "async"][n(5)]}`;
}

/** A few subjects told again and again with changing values and wording: a supersession storm. */
const NEAR_DUPLICATES: Array<
  (subject: string, p: Pick, n: (max: number) => number) => Written & Partial<Omit<Truth, "slot">>
> = [
  (subject, _p, n) => ({ text: `The ${subject} service listens on port ${3000 + n(2000)}.`, slot: [subject, "port"] }),
  (subject, _p, n) => ({ text: `${subject} now listens on port ${3000 + n(2000)}.`, slot: [subject, "port"] }),
  (subject, p) => ({
    text: `Deploys of ${subject} go out from the ${p(BRANCHES)} branch.`,
    slot: [subject, "deploys"],
  }),
  (subject, p) => {
    // Two moves of one service are two facts; each retires what presented the library it left as current.
    const [to, from] = [p(LIBRARIES), p(LIBRARIES)];
    const text = `${subject} now uses ${to} instead of ${from}.`;
    return { text, slot: [text], current: [`${subject}|${to}`], retires: [`${subject}|${from}`] };
  },
  (subject, _p, n) => ({
    text: `The ${subject} cache keeps entries for ${30 * (1 + n(120))} seconds.`,
    slot: [subject, "cache"],
  }),
  (subject, p, n) => {
    const [lib, version] = [p(LIBRARIES), `${1 + n(9)}.${n(30)}`];
    return { text: `We pin ${lib} to ${version} in ${subject}.`, slot: [subject, lib], current: [`${subject}|${lib}`] };
  },
];

export class CodingMemories {
  private readonly random: () => number;
  private readonly services: string[];
  private minute = 0;

  constructor(seed: number) {
    this.random = mulberry32(seed);
    this.services = DOMAINS.flatMap((domain) => ROLES.map((role) => `${domain}-${role}`));
  }

  private readonly pick: Pick = (list) => list[Math.floor(this.random() * list.length)]!;
  private readonly n = (max: number) => Math.floor(this.random() * max);

  /** One memory on a subject drawn from the whole space (400 services times every template). */
  varied(): GeneratedMemory {
    const index = Math.floor(this.random() * TEMPLATES.length);
    const written = TEMPLATES[index]!(this.pick, this.n, () => this.pick(this.services));
    return this.stamped(written.text, { slot: `${index}:${written.slot.join("|")}`, current: [], retires: [] });
  }

  /** One memory on one of `subjects` services, from a few templates: near-duplicates and updates. */
  nearDuplicate(subjects: number): GeneratedMemory {
    const subject = this.services[this.n(subjects)]!;
    const index = Math.floor(this.random() * NEAR_DUPLICATES.length);
    const written = NEAR_DUPLICATES[index]!(subject, this.pick, this.n);
    return this.stamped(written.text, {
      slot: `near:${written.slot.join("|")}`,
      current: written.current ?? [],
      retires: written.retires ?? [],
    });
  }

  /** A minute apart each, so the file's order is the order things were said. */
  private stamped(content: string, truth: Truth): GeneratedMemory {
    this.minute += 1;
    return { content, occurredAt: new Date(Date.UTC(2025, 0, 1) + this.minute * 60_000).toISOString(), truth };
  }
}
