/**
 * Blocks Codex puts into user-role messages on its own (project instructions, environment, sandbox
 * rules, skill bodies, notices). They are context for the model, not something the user said, so
 * they never become user items. Matched at the start of a content part, case-insensitively.
 */
const INJECTED_PREFIXES = [
  "# agents.md instructions",
  "<instructions>",
  "<environment_context>",
  "<user_instructions>",
  "<permissions instructions>",
  "<developer_instructions>",
  "<collaboration_mode>",
  "<skills_instructions>",
  "<plugins_instructions>",
  "<skill>",
  "<subagent_notification>",
  "<turn_aborted>",
];

export function isInjectedContext(text: string): boolean {
  const head = text.trimStart().slice(0, 64).toLowerCase();
  return INJECTED_PREFIXES.some((prefix) => head.startsWith(prefix));
}
