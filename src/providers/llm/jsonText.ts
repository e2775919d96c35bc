/**
 * The JSON text inside a model answer that was asked for JSON by instruction only: models often
 * wrap it in a ```json fence despite being told not to. Any other text is returned unchanged.
 */
export function unwrapJsonFence(text: string): string {
  const match = /^\s*```[a-zA-Z]*\s*\n([\s\S]*?)\n?```\s*$/.exec(text);
  return match?.[1] ?? text;
}

/** The system prompt addition that asks for schema-shaped JSON where there is no native schema mode. */
export function schemaInstruction(jsonSchema: { name: string; schema: Record<string, unknown> }): string {
  return [
    `Answer with only one JSON object (${jsonSchema.name}) that matches this JSON Schema.`,
    "No prose before or after it, no code fence.",
    JSON.stringify(jsonSchema.schema),
  ].join("\n");
}
