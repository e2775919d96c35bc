/**
 * The update check set's chains: facts about software that changed, each told first as it was and
 * later as it is, in the ways people say a change (with and without "now", "instead", "switched",
 * "no longer", "moved"; a tool swap, a version bump, a value or a setting changed, a decision
 * reversed, a procedure replaced, a user's preference changed). Written for cairn from general
 * knowledge of how projects change, in stacks and wording of their own; nothing is taken from a
 * benchmark corpus. The runner (bench/update-check.ts) spreads the statements over weeks with other
 * memories between them.
 */
export interface UpdateChain {
  /** Project label the memories and the question belong to. */
  scope: string;
  /** What was said, oldest first: the last statement is the one that holds now. */
  steps: string[];
  /** A question whose answer is the last statement. */
  question: string;
}

export const UPDATE_CHAINS: UpdateChain[] = [
  // kestrel: a Django web application.
  {
    scope: "kestrel",
    steps: [
      "Python dependencies for kestrel are managed with pip-tools; edit requirements.in and compile requirements.txt.",
      "kestrel switched to Poetry for dependency management, so pyproject.toml is the source of truth.",
    ],
    question: "how are python dependencies managed in kestrel?",
  },
  {
    scope: "kestrel",
    steps: [
      "The Celery workers use RabbitMQ as their broker.",
      "The Celery broker is Redis now; RabbitMQ was retired during the spring cleanup.",
    ],
    question: "which broker do the celery workers use?",
  },
  {
    scope: "kestrel",
    steps: ["The Django app runs on Python 3.9.", "kestrel was upgraded to Python 3.12 last week."],
    question: "what python version does the django app run on?",
  },
  {
    scope: "kestrel",
    steps: [
      "Static files are served by WhiteNoise from the app container.",
      "Static assets are served from CloudFront; WhiteNoise is no longer in the middleware list.",
    ],
    question: "how are static files served?",
  },
  {
    scope: "kestrel",
    steps: ["Session cookies expire after 14 days.", "Session cookies expire after 2 days since the security review."],
    question: "how long do session cookies last?",
  },
  {
    scope: "kestrel",
    steps: ["Errors from kestrel are reported to Rollbar.", "We moved error tracking from Rollbar to Sentry."],
    question: "where do errors get reported?",
  },
  {
    scope: "kestrel",
    steps: [
      "Type-check the code base with `mypy kestrel/` before pushing.",
      "Type checks are done with pyright instead of mypy.",
    ],
    question: "which type checker do we run?",
  },
  {
    scope: "kestrel",
    steps: [
      "The nightly export job runs at 02:00 UTC.",
      "The nightly export job was moved to 04:30 UTC so that it no longer overlaps the backups.",
    ],
    question: "when does the nightly export run?",
  },
  {
    scope: "kestrel",
    steps: [
      "To release kestrel, tag the commit by hand and push the tag; CI builds the wheel from it.",
      "Releases are cut with `make release VERSION=x.y.z`, which tags and pushes for you.",
    ],
    question: "how do I cut a release of kestrel?",
  },
  {
    scope: "kestrel",
    steps: [
      "We decided to keep the monolith and not split the billing module out.",
      "Decision reversed: billing is being extracted into its own service starting this quarter.",
    ],
    question: "are we splitting billing out of the monolith?",
  },
  {
    scope: "kestrel",
    steps: [
      "Search in kestrel uses Postgres full-text search.",
      "Search was moved to OpenSearch.",
      "Search is back on Postgres full-text search; the OpenSearch cluster cost too much.",
    ],
    question: "what powers search in kestrel?",
  },
  // ferry: a Go service.
  {
    scope: "ferry",
    steps: ["ferry builds with Go 1.20.", "The go.mod for ferry says go 1.22 now."],
    question: "which Go version does ferry build with?",
  },
  {
    scope: "ferry",
    steps: ["HTTP routing in ferry uses gorilla/mux.", "ferry replaced gorilla/mux with chi for routing."],
    question: "what router does ferry use?",
  },
  {
    scope: "ferry",
    steps: [
      "Logging in ferry goes through logrus with the JSON formatter.",
      "All logging goes through log/slog; logrus has been removed.",
    ],
    question: "what logging library does ferry use?",
  },
  {
    scope: "ferry",
    steps: [
      "The ferry gRPC server listens on port 50051.",
      "ferry's gRPC port changed to 9090 to match the mesh defaults.",
    ],
    question: "what port does the ferry gRPC server listen on?",
  },
  {
    scope: "ferry",
    steps: [
      "Integration tests for ferry need a local Postgres started with `docker compose up db`.",
      "Integration tests use testcontainers and start their own Postgres; the docker compose step is not needed anymore.",
    ],
    question: "how do the integration tests get a database?",
  },
  {
    scope: "ferry",
    steps: ["Lint ferry with `golint ./...`.", "golangci-lint took over from golint: run `golangci-lint run`."],
    question: "how do I lint ferry?",
  },
  {
    scope: "ferry",
    steps: ["The upload size limit is 25 MB.", "The upload limit went up from 25 MB to 100 MB."],
    question: "what is the upload size limit?",
  },
  {
    scope: "ferry",
    steps: [
      "ferry is deployed to the ECS cluster through CodeDeploy.",
      "ferry runs on Kubernetes now, synced by Flux from the deploy repo.",
    ],
    question: "where is ferry deployed?",
  },
  {
    scope: "ferry",
    steps: ["The database connection pool size is 20.", "Set the database connection pool size to 50."],
    question: "what is the database connection pool size?",
  },
  {
    scope: "ferry",
    steps: [
      "The new_checkout feature flag is enabled in production.",
      "The new_checkout feature flag is disabled in production after the incident.",
    ],
    question: "is the new_checkout flag enabled in production?",
  },
  // lumen: a mobile app.
  {
    scope: "lumen",
    steps: ["The Android app targets SDK 33.", "The Android app targets SDK 34 since the Play Store deadline."],
    question: "what SDK does the android app target?",
  },
  {
    scope: "lumen",
    steps: [
      "iOS dependencies are installed with CocoaPods (`pod install` in ios/).",
      "We migrated the iOS project from CocoaPods to Swift Package Manager.",
    ],
    question: "how are ios dependencies installed?",
  },
  {
    scope: "lumen",
    steps: ["Crash reports from the app go to Crashlytics.", "Crash reporting switched to Bugsnag."],
    question: "which service collects crash reports?",
  },
  {
    scope: "lumen",
    steps: ["The minimum iOS version of the app is 14.", "We dropped iOS 14 and 15; the minimum is iOS 16."],
    question: "what is the minimum iOS version?",
  },
  {
    scope: "lumen",
    steps: [
      "Beta builds are distributed to testers through App Center.",
      "App Center is retired; beta builds go out through TestFlight and Firebase App Distribution.",
    ],
    question: "how do testers get beta builds?",
  },
  {
    scope: "lumen",
    steps: ["State management in the app uses MobX stores.", "The app uses Zustand for state management instead."],
    question: "what do we use for state management?",
  },
  {
    scope: "lumen",
    steps: [
      "The staging API base URL is https://staging-api.lumen.dev.",
      "The staging API moved to https://api.staging.lumen.dev.",
    ],
    question: "what is the staging API base URL?",
  },
  {
    scope: "lumen",
    steps: [
      "Push notifications are sent through OneSignal.",
      "Push notifications are sent through FCM directly; we no longer use OneSignal.",
    ],
    question: "what sends push notifications?",
  },
  {
    scope: "lumen",
    steps: [
      "Release builds are signed on Sam's laptop with the upload keystore.",
      "Release builds are signed in CI with the keystore from the secrets store; nobody signs locally anymore.",
    ],
    question: "where are release builds signed?",
  },
  {
    scope: "lumen",
    steps: ["The project is on Kotlin 1.8.22.", "Bumped Kotlin to 1.9.10.", "Kotlin is on 2.0.0 with the K2 compiler."],
    question: "which kotlin version are we on?",
  },
  // quarry: infrastructure and a Rust tool.
  {
    scope: "quarry",
    steps: [
      "Terraform state is kept in an S3 bucket with DynamoDB locking.",
      "Terraform state lives in Terraform Cloud now.",
    ],
    question: "where is terraform state stored?",
  },
  {
    scope: "quarry",
    steps: [
      "The Rust toolchain is pinned to 1.74 in rust-toolchain.toml.",
      "rust-toolchain.toml pins Rust 1.79 after the bump.",
    ],
    question: "what rust toolchain is pinned?",
  },
  {
    scope: "quarry",
    steps: ["Benchmarks are written with criterion.", "We replaced criterion with divan for benchmarks."],
    question: "what do we use for benchmarks?",
  },
  {
    scope: "quarry",
    steps: [
      "Metrics are scraped by Prometheus and shown in Grafana.",
      "Metrics go to Datadog; the Prometheus server was shut down.",
    ],
    question: "where do the metrics go?",
  },
  {
    scope: "quarry",
    steps: ["The on-call rotation is managed in PagerDuty.", "On-call moved to Opsgenie."],
    question: "what tool manages the on-call rotation?",
  },
  {
    scope: "quarry",
    steps: ["Database backups run every 6 hours.", "Database backups run every hour."],
    question: "how often do database backups run?",
  },
  {
    scope: "quarry",
    steps: ["The staging cluster has 3 nodes.", "Staging was scaled down to 2 nodes to save cost."],
    question: "how many nodes does the staging cluster have?",
  },
  {
    scope: "quarry",
    steps: [
      "CI for quarry runs on a self-hosted Jenkins.",
      "CI for quarry is GitHub Actions; the Jenkins box was decommissioned.",
    ],
    question: "what CI does quarry use?",
  },
  {
    scope: "quarry",
    steps: [
      "To rotate the TLS certificate, run certbot renew on the bastion host.",
      "TLS certificates are renewed automatically by cert-manager; there is no manual certbot step anymore.",
    ],
    question: "how do TLS certificates get renewed?",
  },
  {
    scope: "quarry",
    steps: ["Container images are pushed to Docker Hub.", "Images are pushed to GHCR instead of Docker Hub."],
    question: "which registry do container images get pushed to?",
  },
  // The user's preferences (global).
  {
    scope: "global",
    steps: [
      "The user likes a detailed explanation with every code change.",
      "The user now wants short answers: the diff and one line of why.",
    ],
    question: "how much explanation does the user want with a code change?",
  },
  {
    scope: "global",
    steps: [
      "The user wants commit messages in the imperative mood with a Jira key prefix.",
      "The user no longer wants Jira keys in commit messages; use the conventional commits style.",
    ],
    question: "how should commit messages be written?",
  },
  {
    scope: "global",
    steps: [
      "Always ask the user before installing packages.",
      "The user said packages may be installed without asking.",
    ],
    question: "do I need to ask before installing packages?",
  },
  {
    scope: "global",
    steps: ["The user's editor is VS Code.", "The user switched to Neovim."],
    question: "what editor does the user use?",
  },
  {
    scope: "global",
    steps: [
      "Write Python tests as unittest.TestCase classes.",
      "The user prefers plain pytest functions with bare asserts over unittest classes.",
    ],
    question: "what style should python tests be written in?",
  },
];
