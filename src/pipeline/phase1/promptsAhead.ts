import type { SessionRecord } from "../../collection/types.js";
import type { Stage1Prompt } from "./extractSession.js";
import type { SessionItems } from "./sessionItems.js";

/** A session read, and its stage-1 prompt built, before the session's turn came. */
export interface PreparedSession {
  session: SessionRecord;
  /** Read a page at a time when used; the prompt, when there is one, was rendered from them already. */
  items: SessionItems;
  /** Absent when no model call is expected (offline, or an output that is already current). */
  prompt?: Stage1PromptLike;
}

type Stage1PromptLike = Pick<Stage1Prompt, "system" | "prompt"> & Partial<Pick<Stage1Prompt, "windows">>;

/**
 * Builds the next sessions' stage-1 prompts while the running ones wait for the model. Rendering (the
 * tokenizer, redaction) is main-thread CPU: done when a slot frees, it queues behind the other slots'
 * work on that one thread and delays the slot's model call; done ahead, it fills time the thread would
 * spend waiting. A prepared session is used only if the session row has not changed since it was read
 * (same `updatedAt` and invalidation watermark), so the prompt sent is the one rendering it at its
 * turn would give.
 */
export class PromptsAhead {
  private readonly started = new Set<string>();
  private readonly ready = new Map<string, PreparedSession>();
  private next = 0;

  /**
   * @param keys sessions in the order they take a slot (the order the concurrency limiter runs them).
   * @param prepare reads and renders one session; undefined when there is nothing to prepare.
   */
  constructor(
    private readonly keys: readonly string[],
    private readonly prepare: (key: string) => PreparedSession | undefined,
  ) {}

  /** The session's prepared state when it is still current; marks the session started either way. */
  take(key: string, current: SessionRecord | undefined): PreparedSession | undefined {
    this.started.add(key);
    const prepared = this.ready.get(key);
    this.ready.delete(key);
    if (!prepared || !current) return undefined;
    const same =
      prepared.session.updatedAt === current.updatedAt && prepared.session.invalidatedAt === current.invalidatedAt;
    return same ? prepared : undefined;
  }

  /**
   * Prepares the first session that has not started, once the current macrotask (the model request
   * just sent) is done: the work then runs while that request is in flight.
   */
  prepareSoon(): void {
    setImmediate(() => this.prepareNext());
  }

  /** Prepares nothing more: the run is over (a pending turn must not read a store about to close). */
  stop(): void {
    this.next = this.keys.length;
    this.ready.clear();
  }

  private prepareNext(): void {
    while (this.next < this.keys.length && this.started.has(this.keys[this.next]!)) this.next += 1;
    const key = this.keys[this.next];
    if (key === undefined) return;
    this.next += 1;
    try {
      const prepared = this.prepare(key);
      if (prepared) this.ready.set(key, prepared);
    } catch {
      // The session is read again at its turn, where a failure is reported as the job's.
    }
  }
}
