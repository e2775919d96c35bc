import { isAbsolute } from "node:path";
import { z } from "zod";
import { memoryTypes } from "../memory/types.js";

// Request bodies of the HTTP API. Strict objects: a misspelt field is a 400 naming it, not a silently
// ignored option.

const cwd = z.string().min(1).refine(isAbsolute, "must be an absolute path");
const scope = z.string().min(1);

/** Project scope (the default) means "the project of cwd": a daemon's own cwd is nobody's project. */
function requireCwdForProject(body: { scope?: string | undefined; cwd?: string | undefined }, ctx: z.RefinementCtx) {
  if ((body.scope ?? "project") === "project" && body.cwd === undefined) {
    ctx.addIssue({ code: "custom", path: ["cwd"], message: "is required when scope is project (the default)" });
  }
}

export const injectBody = z.object({ cwd }).strict();

export const recallBody = z
  .object({
    query: z.string().trim().min(1),
    k: z.number().int().min(1).max(100).optional(),
    scope: scope.optional(),
    cwd: cwd.optional(),
    expand: z.boolean().optional(),
  })
  .strict()
  .superRefine(requireCwdForProject);

const rememberItem = z
  .object({
    content: z.string().trim().min(1).max(100_000),
    scope: scope.optional(),
    ref: z.string().max(1000).optional(),
    type: z.enum(memoryTypes).optional(),
  })
  .strict();

export const rememberBody = z
  .object({
    content: rememberItem.shape.content.optional(),
    items: z.array(rememberItem).min(1).max(1000).optional(),
    scope: scope.optional(),
    ref: rememberItem.shape.ref,
    type: rememberItem.shape.type,
    cwd: cwd.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.content === undefined) === (body.items === undefined)) {
      ctx.addIssue({ code: "custom", path: ["content"], message: "or items is required (one of them, not both)" });
      return;
    }
    const scopes = body.items ? body.items.map((item) => item.scope ?? body.scope) : [body.scope];
    if (scopes.some((s) => (s ?? "project") === "project") && body.cwd === undefined) {
      ctx.addIssue({ code: "custom", path: ["cwd"], message: "is required when scope is project (the default)" });
    }
  });

export const readBody = z
  .object({ url: z.string().min(1), cwd: cwd.optional() })
  .strict()
  .superRefine((body, ctx) => {
    if (body.url.trim().startsWith("memory://root") && body.cwd === undefined) {
      ctx.addIssue({ code: "custom", path: ["cwd"], message: "is required for memory://root URLs" });
    }
  });

export const runBody = z.object({}).strict();
