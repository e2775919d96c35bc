import { CairnError } from "../util/errors.js";

/** Refuses a memory write at the door while the configuration freezes them (pipeline.mutationsFrozen). */
export function assertWritable(frozen: boolean | undefined): void {
  if (frozen) {
    throw new CairnError(
      "mutations_frozen",
      "memory writes are frozen (pipeline.mutationsFrozen is true): set it to false to change memories",
    );
  }
}
