// Increments a plain (non-atomic) counter many times, each time holding the ThreadMutex under test.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { ThreadMutex } = await import("../../../src/store/threadMutex.ts");
const mutex = new ThreadMutex(workerData.mutex);
const counter = new Int32Array(workerData.counter);
// Start together: slot 2 counts the workers ready.
Atomics.add(counter, 2, 1);
for (let ready = Atomics.load(counter, 2); ready < workerData.workers; ready = Atomics.load(counter, 2))
  Atomics.wait(counter, 2, ready, 5);
for (let i = 0; i < workerData.rounds; i++) {
  mutex.hold(workerData.holder, () => {
    const value = counter[0];
    // Widen the window between read and write so that an unguarded increment would lose updates.
    for (let spin = 0; spin < 200; spin++) Atomics.load(counter, 1);
    counter[0] = value + 1;
  });
}
