/**
 * A value made on its first use and kept. Why: a module's top level runs whenever any of its exports
 * is imported, and every command line starts a new process; a value that takes milliseconds to build
 * (a schema library's objects, a table computed from a word list) should be paid for by the commands
 * that use it, not by every `cairn recall` that happens to import the module for something else.
 */
export function lazily<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}
