import type { CairnConfig } from "../../config/schema.js";
import { createLlmProvider, describeRoleSpec, type LlmRoleSpec } from "./createLlmProvider.js";
import { type DetectedRole, type DetectLlmOptions, detectLlmRole } from "./detect.js";
import { roleSpecFor } from "./roleSpecFor.js";
import type { LlmProvider } from "./types.js";

/** The two model roles of seed 003; null means offline (the deterministic extractor and consolidator). */
export interface ResolvedLlm {
  /** Phase 1 extraction and the fact pipeline. */
  default: LlmProvider | null;
  /** Phase 2 consolidation; the same instance as `default` when smol is not configured. */
  smol: LlmProvider | null;
  /** One line for `cairn doctor`: what was chosen for each role and why. */
  reason: string;
}

export type ResolveLlmOptions = DetectLlmOptions;

/**
 * Resolves both roles from config (file, CAIRN_* variables and flags already merged by the loader)
 * and the standard environment variables. See detectLlmRole for the auto-detection order.
 */
export async function resolveLlm(
  config: Pick<CairnConfig, "llm" | "smol">,
  env: NodeJS.ProcessEnv = process.env,
  options: ResolveLlmOptions = {},
): Promise<ResolvedLlm> {
  const main = await detectLlmRole(config.llm, env, options, "llm");
  const defaultProvider = main.spec ? createLlmProvider(main.spec, env) : null;
  const smol = await resolveSmolRole(config, main, env, options);
  const smolProvider = smol === "same" ? defaultProvider : smol.spec ? createLlmProvider(smol.spec, env) : null;
  const smolReason = smol === "same" ? "uses the default role" : smol.reason;
  return { default: defaultProvider, smol: smolProvider, reason: `${main.reason}; smol: ${smolReason}` };
}

/**
 * smol falls back to the default role entirely when nothing is set for it. Otherwise unset fields
 * are inherited from the default role, model, endpoint and key only when both use the same
 * provider (a default role's OpenAI model means nothing to Anthropic); the timeout always.
 */
async function resolveSmolRole(
  config: Pick<CairnConfig, "llm" | "smol">,
  main: DetectedRole,
  env: NodeJS.ProcessEnv,
  options: ResolveLlmOptions,
): Promise<DetectedRole | "same"> {
  const smol = config.smol;
  const setFields = (["provider", "model", "baseUrl", "apiKey", "timeoutMs"] as const).filter(
    (field) => smol[field] !== undefined,
  );
  if (setFields.length === 0) return "same";
  const timeoutMs = smol.timeoutMs ?? config.llm.timeoutMs;
  if (smol.provider === "offline" || smol.provider === "auto") {
    return detectLlmRole({ ...smol, provider: smol.provider, timeoutMs }, env, options, "smol");
  }
  const provider = smol.provider ?? main.spec?.provider;
  if (provider === undefined) return { spec: null, reason: "inherits offline from the default role" };
  const inherited: Partial<LlmRoleSpec> = provider === main.spec?.provider ? main.spec : {};
  const spec = roleSpecFor(
    provider,
    {
      model: smol.model ?? inherited.model,
      baseUrl: smol.baseUrl ?? inherited.baseUrl,
      apiKey: smol.apiKey ?? inherited.apiKey,
      timeoutMs,
    },
    env,
  );
  const why = setFields.map((field) => `smol.${field}`).join(", ");
  return { spec, reason: `${why} set → ${describeRoleSpec(spec)}` };
}
