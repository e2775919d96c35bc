import { guardText } from "../../redact/guard.js";

/**
 * A skill's folder name from the name a model or an agent gave it: guarded first, then lowercased and
 * dashed. In that order, because the rules read a token's case and its `_` (`sk_live_...`), which the
 * reshaping loses; a token becomes `redacted-<rule>` instead of a folder named after it.
 */
export function skillFolderName(raw: string): string {
  return guardText(raw)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
}
