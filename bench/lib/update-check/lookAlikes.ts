/**
 * The update check set's look-alike pairs: two memories that read alike and are both true, never one
 * the update of the other (two services, two environments, numbered things, a test command beside a
 * lint command, one tool in two roles, facts that add up). The second is said later; the question asks
 * for the first, so a recall that lets the newer of two look-alikes take the older's place fails it.
 * Written for cairn from general knowledge; nothing is taken from a benchmark corpus. Also: memories
 * about other things, said between the chains' statements, as a store holds them.
 */
export interface LookAlikePair {
  scope: string;
  /** Both hold; `second` was said later. */
  first: string;
  second: string;
  /** A question whose answer is `first`. */
  question: string;
}

export const LOOK_ALIKES: LookAlikePair[] = [
  {
    scope: "ferry",
    first: "The orders service listens on port 8081.",
    second: "The invoices service listens on port 8082.",
    question: "what port does the orders service listen on?",
  },
  {
    scope: "kestrel",
    first: "Staging uses a db.t3.medium RDS instance.",
    second: "Production uses a db.r6g.xlarge RDS instance.",
    question: "what instance size is the staging database?",
  },
  {
    scope: "kestrel",
    first: "Worker 1 handles the email queue.",
    second: "Worker 2 handles the webhook queue.",
    question: "which queue does worker 1 handle?",
  },
  {
    scope: "ferry",
    first: "Run the unit tests with `make test`.",
    second: "Run the linter with `make lint`.",
    question: "how do I run the unit tests?",
  },
  {
    scope: "kestrel",
    first: "Redis is the Celery result backend.",
    second: "Redis also stores the rate-limit counters.",
    question: "what is the celery result backend?",
  },
  {
    scope: "kestrel",
    first: "kestrel depends on Pillow for image resizing.",
    second: "kestrel also depends on lxml for parsing feeds.",
    question: "what library does image resizing?",
  },
  {
    scope: "quarry",
    first: "The EU region runs in eu-central-1.",
    second: "The US region runs in us-east-2.",
    question: "which AWS region hosts the EU region?",
  },
  {
    scope: "kestrel",
    first: "The admin dashboard is built with React.",
    second: "The marketing site is built with Astro.",
    question: "what is the admin dashboard built with?",
  },
  {
    scope: "lumen",
    first: "Android CI builds run on ubuntu-latest runners.",
    second: "iOS CI builds run on macos-14 runners.",
    question: "what runner do the android builds use?",
  },
  {
    scope: "lumen",
    first: "Step 3 of the release checklist: update the changelog.",
    second: "Step 5 of the release checklist: announce the release in #releases.",
    question: "what is step 3 of the release checklist?",
  },
  {
    scope: "ferry",
    first: "The ferry API timeout is 30 seconds.",
    second: "The ferry API rate limit is 600 requests per minute.",
    question: "what is the ferry API timeout?",
  },
  {
    scope: "quarry",
    first: "The dev environment uses LocalStack for S3.",
    second: "The QA environment uses a real S3 bucket named quarry-qa-artifacts.",
    question: "what does the dev environment use for S3?",
  },
  {
    scope: "kestrel",
    first: "Postgres stores the user accounts.",
    second: "Postgres also backs the job queue through pg-boss.",
    question: "where are user accounts stored?",
  },
  {
    scope: "ferry",
    first: "Format Go code with gofumpt.",
    second: "Format SQL files with sqlfluff.",
    question: "how is Go code formatted?",
  },
  {
    scope: "kestrel",
    first: "The billing webhook secret is read from BILLING_WEBHOOK_SECRET.",
    second: "The shipping webhook secret is read from SHIPPING_WEBHOOK_SECRET.",
    question: "which environment variable holds the billing webhook secret?",
  },
  {
    scope: "ferry",
    first: "Tomás owns the payments module.",
    second: "Ines owns the search module.",
    question: "who owns the payments module?",
  },
  {
    scope: "lumen",
    first: "Issue #212: login fails on Safari when third-party cookies are blocked.",
    second: "Issue #230: login fails on Firefox when the device clock is skewed.",
    question: "what is issue 212 about?",
  },
  {
    scope: "ferry",
    first: "The public API is versioned under /v2.",
    second: "The internal API is versioned under /v1.",
    question: "what version prefix does the public API use?",
  },
  {
    scope: "lumen",
    first: "Unit tests run on every push.",
    second: "End-to-end tests run nightly.",
    question: "when do the unit tests run?",
  },
  {
    scope: "kestrel",
    first: "We use Jest for the web frontend tests.",
    second: "We use Vitest for the component library tests.",
    question: "what runs the web frontend tests?",
  },
  {
    scope: "quarry",
    first: "The legacy Lambda functions run on Node 18.",
    second: "The new API service runs on Node 20.",
    question: "which node version do the legacy lambda functions use?",
  },
  {
    scope: "lumen",
    first: "The mobile app talks to GraphQL at /graphql.",
    second: "The web app talks to REST at /api.",
    question: "which endpoint does the mobile app talk to?",
  },
  {
    scope: "kestrel",
    first: "The cron job cleanup-sessions runs every 15 minutes.",
    second: "The cron job rebuild-search-index runs every 6 hours.",
    question: "how often does cleanup-sessions run?",
  },
  {
    scope: "global",
    first: "The user likes type hints on all public functions.",
    second: "The user likes docstrings in the Google style.",
    question: "what does the user want on public functions?",
  },
  {
    scope: "ferry",
    first: "The emails queue has a concurrency of 5.",
    second: "The exports queue has a concurrency of 2.",
    question: "what concurrency does the emails queue have?",
  },
  {
    scope: "quarry",
    first: "The primary database host is db-primary.internal.",
    second: "The read replica host is db-replica.internal.",
    question: "what is the primary database host?",
  },
  {
    scope: "ferry",
    first: "On macOS, install protoc with `brew install protobuf`.",
    second: "On Linux, install protoc with `apt-get install protobuf-compiler`.",
    question: "how do I install protoc on macOS?",
  },
  {
    scope: "lumen",
    first: "The frontend is deployed to Vercel.",
    second: "The backend is deployed to Fly.io.",
    question: "where is the frontend deployed?",
  },
  {
    scope: "kestrel",
    first: "Chapter 2 of the onboarding guide covers the local setup.",
    second: "Chapter 4 of the onboarding guide covers deploys.",
    question: "which chapter of the onboarding guide covers local setup?",
  },
  {
    scope: "lumen",
    first: "The Sentry DSN for the web app is in SENTRY_DSN_WEB.",
    second: "The Sentry DSN for the mobile app is in SENTRY_DSN_MOBILE.",
    question: "where is the web app's sentry DSN?",
  },
  {
    scope: "quarry",
    first: "Build the docs with `tox -e docs`.",
    second: "Run the Python package tests with `tox -e py312`.",
    question: "how do I build the docs?",
  },
  {
    scope: "kestrel",
    first: "The dark_mode feature flag is on for beta users.",
    second: "The offline_sync feature flag is off for beta users.",
    question: "is the dark_mode flag on for beta users?",
  },
  {
    scope: "ferry",
    first: "In staging, emails are sent to Mailtrap.",
    second: "In production, emails are sent through Postmark.",
    question: "where do staging emails go?",
  },
  {
    scope: "global",
    first: "The user wants a failing test written before the fix.",
    second: "The user wants pull request descriptions to list the manual test steps.",
    question: "what does the user want before a fix?",
  },
];

/** Memories about other things, said between the chains' and pairs' statements. */
export const OTHER_MEMORIES: Array<{ scope: string; content: string }> = [
  { scope: "kestrel", content: "The admin site is mounted at /backstage instead of the default path." },
  { scope: "kestrel", content: "Time zones are stored as UTC and converted in the templates." },
  { scope: "kestrel", content: "The CSV importer chokes on files saved with a byte order mark; strip it first." },
  { scope: "kestrel", content: "Marta reviews anything that touches the payment forms." },
  { scope: "kestrel", content: "Translations live in locale/ and are compiled with compilemessages." },
  { scope: "kestrel", content: "The sitemap is regenerated by a management command after each deploy." },
  { scope: "ferry", content: "ferry exposes Prometheus-style health data at /metrics on the admin listener." },
  { scope: "ferry", content: "Generated protobuf code is checked in under gen/ and must not be edited." },
  { scope: "ferry", content: "A flaky test in the retry package fails when the machine is under load." },
  { scope: "ferry", content: "Context deadlines are passed down from the handler to every database call." },
  { scope: "ferry", content: "The config file is parsed with koanf and can be overridden by FERRY_ variables." },
  { scope: "ferry", content: "Panics in handlers are recovered by middleware and logged with the request id." },
  { scope: "lumen", content: "Deep links use the lumen:// scheme and are routed in the navigation module." },
  { scope: "lumen", content: "Dark mode colours are defined in the theme tokens file." },
  { scope: "lumen", content: "The onboarding carousel is skipped for users who signed up on the web." },
  { scope: "lumen", content: "Analytics events are batched and flushed every 30 seconds." },
  { scope: "lumen", content: "Accessibility labels are required on every tappable icon." },
  { scope: "lumen", content: "The image cache is cleared when the app receives a memory warning." },
  { scope: "quarry", content: "quarry's CLI reads its settings from quarry.toml in the working directory." },
  { scope: "quarry", content: "The VPC has three private subnets, one per availability zone." },
  { scope: "quarry", content: "Unsafe code is only allowed in the mmap module and needs a SAFETY comment." },
  { scope: "quarry", content: "The NAT gateway is the largest line on the monthly bill." },
  { scope: "quarry", content: "Clippy warnings fail the build because of the deny attribute in lib.rs." },
  { scope: "quarry", content: "Secrets for the pipelines are injected from SSM Parameter Store." },
  { scope: "global", content: "The user works in the Europe/Lisbon time zone." },
  { scope: "global", content: "The user reads code review comments in the morning." },
  { scope: "global", content: "Do not add emojis to code comments." },
  { scope: "global", content: "The user wants shell commands explained before they are run on production." },
];
