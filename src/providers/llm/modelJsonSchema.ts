import { z } from "zod";

/**
 * The JSON Schema for `LlmRequest.jsonSchema`, generated from the zod schema that also reads the answer,
 * so the shape asked for and the shape accepted cannot drift apart. Kept within what OpenAI's strict
 * structured outputs and the claude/codex CLIs accept: z.object gives closed objects (additionalProperties
 * false) with every property required; `$schema`, the `default` a `.catch()` adds and zod's ±2^53 bounds
 * on integers are left out, as none of them tells the model anything.
 */
export function modelJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json: Record<string, unknown> = z.toJSONSchema(schema, {
    override: ({ jsonSchema }) => {
      delete jsonSchema.default;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER && jsonSchema.maximum === Number.MAX_SAFE_INTEGER) {
        delete jsonSchema.minimum;
        delete jsonSchema.maximum;
      }
    },
  });
  delete json.$schema;
  return json;
}
