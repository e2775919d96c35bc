import { describe, expect, it } from "vitest";
import { judgeSupersession } from "../../src/memory/lifecycle/judgeSupersession.js";
import { aboutOtherSubjects } from "../../src/memory/lifecycle/otherSubjects.js";
import { subjectKeys, subjectNames } from "../../src/text/subjectNames.js";

/**
 * Statements about two code-like named things (two tables, two services, two paths one person
 * reviews) are two facts however alike their words; the same named thing with another value is an
 * update. Written from how developers state facts about code, not from a benchmark's sentences.
 */
describe("code-like names decide the subject", () => {
  it.each([
    [
      "The payments_cron table has an index on (sku, updated_at).",
      "The feed_worker table has an index on (sku, updated_at).",
    ],
    [
      "The invoices-gateway rate limit is 1820 requests per minute per API key.",
      "The invoices-api rate limit is 1240 requests per minute per API key.",
    ],
    [
      "The search-indexer service listens on port 8861 in eu-west.",
      "The search-api service listens on port 3375 in eu-west.",
    ],
    [
      "Rosa reviews every change under src/refunds-proxy/jobs.",
      "Rosa reviews every change under src/refunds-api/models.",
    ],
    [
      "Ana is the escalation contact when orders-api pages at night.",
      "Ben is the escalation contact when cart-worker pages at night.",
    ],
    ["Calls from cart-api to geo-worker retry 3 times.", "Calls from cart-api to tax-worker retry 5 times."],
    ["We pin zod to 3.2.1 in orders-api.", "media-api now uses valibot instead of zod."],
    ["The orders table has an index on (sku, status).", "The orders table has an index on (user_id, status)."],
    ["cart-api now uses vitest instead of jest.", "cart-api now uses pino instead of winston."],
  ])("%s and %s are two facts", (older, newer) => {
    expect(judgeSupersession(newer, older)).toBeUndefined();
  });

  it.each([
    ["ranking-api keeps 20 days of snapshots.", "ranking-api keeps 44 days of snapshots."],
    [
      "The shipping-cron container image is built from distroless/static.",
      "The shipping-cron container image is built from node:22-alpine.",
    ],
    ["The tax-api service listens on port 3000.", "tax-api now listens on port 8080."],
    ["The staging config lives in config/stage.yml", "The staging config lives in config/staging.yaml"],
    ["Build the API docs with `make docs`", "Build the API docs with `make docs-html`"],
    ["cart-api now uses vitest instead of jest.", "cart-api now uses bun test instead of vitest."],
  ])("%s is updated by %s", (older, newer) => {
    expect(judgeSupersession(newer, older)).toBeDefined();
  });

  it.each([
    // One name written two ways: `_` for `-`, or as a folder of a path.
    ["Exports in src/billing_jobs/export are written with csv-writer.", "billing-jobs exports use fast-csv now."],
    [
      "worker-pool is started by the supervisor with `pm2 start`.",
      "Starts are systemd units now: see ops/worker-pool/unit.service.",
    ],
    // The newer says it is a change and names the thing its own way; the older's file holds a setting.
    [
      "Lint the site with `npm run lint` (rules in .eslintrc.json).",
      "site-web replaced ESLint with oxlint: run `npm run lint:ox`.",
    ],
    // The newer adds a detail the older lacks.
    ["Both clusters run Kafka 3.4.", "The clusters are on Kafka 3.7; upgrade edge-east first."],
  ])("%s and %s may be one fact: the detectors judge them", (older, newer) => {
    expect(aboutOtherSubjects(newer, older)).toBe(false);
  });

  it("reads which names are the subject and which are values", () => {
    const names = subjectNames("The shipping-cron container image is built from distroless/static.");
    expect([...names.subject]).toEqual(["shipping-cron"]);
    expect([...names.afterBeing]).toEqual(["distroless/static"]);
    expect([...subjectNames("Run the cart-api tests with `pnpm test src/cart-api`.").subject]).toEqual(["cart-api"]);
    expect([...subjectNames("Deploys of cart-api to eu-west go out from the main branch.").subject]).toEqual([
      "cart-api",
      "eu-west",
    ]);
  });

  it("gives one fact told in two wordings a key in common, and two things none", () => {
    const shared = (a: string, b: string) => subjectKeys(a).some((key) => subjectKeys(b).includes(key));
    expect(shared("The tax-api service listens on port 3000.", "tax-api now listens on port 8080.")).toBe(true);
    expect(shared("The tax-api service listens on port 3000.", "The geo-api service listens on port 3000.")).toBe(
      false,
    );
    expect(subjectKeys("We use npm")).toEqual([]);
  });
});
