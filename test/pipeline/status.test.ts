import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { pipelineStatus } from "../../src/pipeline/status.js";
import type { Storage } from "../../src/store/storage.js";
import { DAY_MS, HOUR_MS } from "../../src/util/clock.js";
import { addSession, memoryStorage } from "../helpers/store.js";

const NOW = Date.UTC(2026, 10, 20, 12);
const clock = () => NOW;
const config = loadConfig({
  env: {},
  overrides: { "memories.minRolloutIdleHours": 6, "memories.maxRolloutAgeDays": 30 },
});

describe("pipelineStatus", () => {
  let storage: Storage;
  afterEach(() => storage.close());

  it("counts pending sessions by the eligibility window and lists failed jobs", () => {
    storage = memoryStorage(clock);
    addSession(storage, clock, { id: "idle", updatedAt: NOW - 7 * HOUR_MS });
    addSession(storage, clock, { id: "recent", updatedAt: NOW - HOUR_MS });
    addSession(storage, clock, { id: "old", updatedAt: NOW - 31 * DAY_MS });
    storage.jobs.enqueue({ kind: "phase1", key: "broken", watermark: 1 });
    const [lease] = storage.jobs.claim({ kind: "phase1", keys: ["broken"] });
    if (lease) storage.jobs.fail(lease, "model answered nonsense");

    const status = pipelineStatus({ storage, config, home: "/memory-root", now: NOW, embedding: { model: "m" } });

    expect(status).toMatchObject({ home: "/memory-root", sessions: 3, stage1Outputs: 0 });
    expect(status.pending).toMatchObject({ eligible: 1, tooRecent: 1, tooOld: 1 });
    expect(status.failedJobs).toEqual([
      { kind: "phase1", key: "broken", status: "failed", attempts: 1, error: "model answered nonsense" },
    ]);
  });

  it("counts the extracted facts under the write threshold, which never became memories", () => {
    storage = memoryStorage(clock);
    addSession(storage, clock, { id: "s1", updatedAt: NOW - 7 * HOUR_MS });
    const fact = (confidence: number) => ({
      content: `A fact at ${confidence}.`,
      type: "fact" as const,
      confidence,
      evidence: [],
    });
    storage.stage1.upsert({
      sessionId: "s1",
      projectKey: null,
      cwd: null,
      agent: "codex",
      sourceUpdatedAt: NOW - 7 * HOUR_MS,
      itemFrom: 1,
      itemTo: 2,
      generator: "model",
      generatedAt: NOW,
      rolloutSummary: "s",
      rolloutSlug: null,
      rawMemory: "m",
      facts: [fact(0.9), fact(0.65), fact(0.5), fact(0.7)],
      entities: [],
    });
    const status = pipelineStatus({ storage, config, home: "h", now: NOW, embedding: { model: "m" } });
    expect(status.factsBelowThreshold).toEqual({ count: 2, threshold: 0.7 });
  });

  it("reports phase 2's watermark and last run, clean while no stage-1 input is newer", () => {
    storage = memoryStorage(clock);
    expect(pipelineStatus({ storage, config, home: "h", now: NOW, embedding: { model: "m" } }).phase2).toEqual({
      watermark: null,
      newestInput: 0,
      dirty: false,
      last: null,
    });
    const state = storage.phase2;
    state.setWatermark(5);
    state.recordLastRun({ at: NOW, outcome: "succeeded", watermark: 5, mode: "offline" });
    expect(pipelineStatus({ storage, config, home: "h", now: NOW, embedding: { model: "m" } }).phase2).toMatchObject({
      watermark: 5,
      dirty: false,
      last: { outcome: "succeeded", mode: "offline" },
    });
  });
});
