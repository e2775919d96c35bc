import { Collector } from "../../src/collection/collector.js";
import type { SessionItem, SessionKind } from "../../src/sources/types.js";
import { Storage } from "../../src/store/storage.js";
import { withWriteTx } from "../../src/store/tx.js";
import type { Clock } from "../../src/util/clock.js";

/** A fresh in-memory store whose queue and collector use the given clock. */
export function memoryStorage(clock: Clock): Storage {
  return Storage.open(":memory:", {
    queue: { clock, leaseMs: 60_000, maxAttempts: 3, backoffBaseMs: 1_000, backoffMaxMs: 60_000, random: () => 0 },
  });
}

export interface SessionSpec {
  id: string;
  updatedAt: number;
  kind?: SessionKind;
  cwd?: string;
  projectKey?: string;
  items?: Array<Partial<SessionItem> & Pick<SessionItem, "role" | "text">>;
}

/** Stores a session with its items (default: six user/assistant turns, enough to invalidate it). */
export function addSession(storage: Storage, clock: Clock, spec: SessionSpec): void {
  const collector = new Collector(storage.sessions, storage.items, {
    maxUnprocessedItems: 5,
    clock,
    projectKeyOf: () => spec.projectKey ?? "path:/work/project",
  });
  const items = (spec.items ?? defaultItems()).map((item, index) => ({
    key: `L${index + 1}`,
    origin: { file: "test", line: index + 1 },
    ...item,
  }));
  withWriteTx(storage.db, () => {
    collector.apply(
      {
        session: {
          id: spec.id,
          agent: "codex",
          kind: spec.kind ?? "interactive",
          cwd: spec.cwd ?? "/work/project",
          startedAt: spec.updatedAt - 1000,
          updatedAt: spec.updatedAt,
        },
        items,
      },
      "test",
    );
    collector.end(spec.id);
  });
}

function defaultItems(): Array<Pick<SessionItem, "role" | "text">> {
  return [
    { role: "user", text: "Please fix the failing date parser tests. Always run the tests with npm test." },
    { role: "assistant", text: "Looking at the parser." },
    { role: "user", text: "Use pnpm instead of npm for installs." },
    { role: "assistant", text: "We decided to switch to Temporal for date handling." },
    { role: "user", text: "Thanks, that works." },
    { role: "assistant", text: "All tests pass now after the Temporal migration." },
  ];
}
