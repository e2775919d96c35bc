// The import lane worker from TypeScript source: worker threads do not inherit the test loader, so
// this registers tsx in the worker before loading the module.
import { register } from "tsx/esm/api";

register();
await import("../../../src/collection/importWorker.ts");
