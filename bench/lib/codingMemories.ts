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

/** Each template writes one memory about a fresh draw of its subject and values. */
const TEMPLATES: Array<(p: Pick, n: (max: number) => number, s: () => string) => string> = [
  (p, n, s) => `The ${s()} service listens on port ${3000 + n(6000)} in ${p(ENVS)}.`,
  (p, _n, s) => `Run the ${s()} tests with \`${p(RUNNERS)} ${p(["src", "tests", "pkg", "internal"])}/${s()}\`.`,
  (p, _n, s) => `${s()} reads its database URL from the ${envVar(s())}_${p(["DB_URL", "DSN", "DATABASE"])} variable.`,
  (p, n, s) =>
    `We pin ${p(LIBRARIES)} to ${1 + n(9)}.${n(30)}.${n(12)} in ${s()} until the ${p(LIBRARIES)} upgrade lands.`,
  (_p, n, s) => `Calls from ${s()} to ${s()} retry ${2 + n(6)} times with ${50 * (1 + n(20))} ms backoff.`,
  (p, _n, s) => `Deploys of ${s()} to ${p(ENVS)} go out from the ${p(BRANCHES)} branch.`,
  (p, _n, s) => `${p(PEOPLE)} reviews every change under src/${s()}/${p(["handlers", "models", "jobs", "routes"])}.`,
  (_p, n, s) => `The ${s()} cache keeps entries for ${30 * (1 + n(120))} seconds.`,
  (p, _n, s) => `Format ${p(LANGUAGES)} code in ${s()} with ${p(FORMATTERS)} before committing.`,
  (p, _n, s) => `The ${tableOf(s())} table has an index on (${p(COLUMNS)}, ${p(COLUMNS)}).`,
  (p, _n, s) => `${s()} logs go to ${p(SINKS)} at ${p(LEVELS)} level in ${p(ENVS)}.`,
  (p, n, s) => `The feature flag ${flagOf(s(), n)} is ${p(["on", "off"])} for ${s()} in ${p(ENVS)}.`,
  (p, _n, s) => `The ${s()} frontend is bundled with ${p(BUNDLERS)} into dist/${s()}.`,
  (p, n, s) =>
    `Migrations for ${s()} live in db/migrations/${s()} and the newest is number ${n(400)}; apply them with \`make migrate-${p(ENVS)}\`.`,
  (_p, n, s) => `Requests from ${s()} to ${s()} time out after ${1 + n(60)} seconds.`,
  (p, _n, s) => `${s()} publishes order ${p(EVENTS)} events to the ${s()}.${p(EVENTS)} topic.`,
  (p, _n, s) => `Secrets for ${s()} in ${p(ENVS)} are kept in ${p(VAULTS)} under ${s()}/${p(ENVS)}.`,
  (p, _n, s) => `The ${s()} container image is built from ${p(BASES)}.`,
  (p, n, s) => `CI for ${s()} runs on ${p(CI)} with ${1 + n(16)} parallel jobs.`,
  (p, n, s) =>
    `The ${s()} rate limit is ${10 * (1 + n(200))} requests per minute per ${p(["user", "tenant", "IP address", "API key"])}.`,
  (p, _n, s) => `${p(PEOPLE)} is the escalation contact when ${s()} pages at night.`,
  (p, _n, s) => `The ${s()} health check is served at /${p(["healthz", "ready", "live", "status"])} on the admin port.`,
  (p, _n, s) => `Bug in ${s()}: ${p(SYMPTOMS)} when ${p(CONDITIONS)}; fixed with ${p(FIXES)}.`,
  (p, _n, s) =>
    `The user wants ${s()} pull requests ${p(["squash-merged", "rebased", "merged with a merge commit"])} after ${p(PEOPLE)} approves.`,
  (p, n, s) => `${s()} keeps ${1 + n(90)} days of ${p(["audit logs", "metrics", "traces", "backups", "snapshots"])}.`,
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
const NEAR_DUPLICATES: Array<(subject: string, p: Pick, n: (max: number) => number) => string> = [
  (subject, _p, n) => `The ${subject} service listens on port ${3000 + n(2000)}.`,
  (subject, _p, n) => `${subject} now listens on port ${3000 + n(2000)}.`,
  (subject, p) => `Deploys of ${subject} go out from the ${p(BRANCHES)} branch.`,
  (subject, p) => `${subject} now uses ${p(LIBRARIES)} instead of ${p(LIBRARIES)}.`,
  (subject, _p, n) => `The ${subject} cache keeps entries for ${30 * (1 + n(120))} seconds.`,
  (subject, p, n) => `We pin ${p(LIBRARIES)} to ${1 + n(9)}.${n(30)} in ${subject}.`,
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
    const template = this.pick(TEMPLATES);
    return this.stamped(template(this.pick, this.n, () => this.pick(this.services)));
  }

  /** One memory on one of `subjects` services, from a few templates: near-duplicates and updates. */
  nearDuplicate(subjects: number): GeneratedMemory {
    const subject = this.services[this.n(subjects)]!;
    return this.stamped(this.pick(NEAR_DUPLICATES)(subject, this.pick, this.n));
  }

  /** A minute apart each, so the file's order is the order things were said. */
  private stamped(content: string): GeneratedMemory {
    this.minute += 1;
    return { content, occurredAt: new Date(Date.UTC(2025, 0, 1) + this.minute * 60_000).toISOString() };
  }
}
