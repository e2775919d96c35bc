/**
 * A gate that lets its callers through one event-loop turn apart. Slots that start together (the first
 * wave of a run) each render a prompt, which is main-thread CPU, before their request can go out; a
 * new connection's request is written only when the loop turns. Passed through one turn apart, each
 * slot's request leaves before the next slot renders, instead of all of them after the last render.
 */
export function oneTurnApart(): () => Promise<void> {
  let last = Promise.resolve();
  return () => {
    last = last.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    return last;
  };
}
