import type * as Crypto from "node:crypto";
import { lazily } from "./lazily.js";

/**
 * Node's crypto module, loaded on first use: loading it costs a command about five milliseconds, and
 * modules every command imports (the atomic file write, the hash) need it only when they run, which a
 * recall never does.
 */
export const nodeCrypto = lazily(() => process.getBuiltinModule("node:crypto") as typeof Crypto);
