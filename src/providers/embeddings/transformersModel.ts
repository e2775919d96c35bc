import { existsSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";
import { embeddingDtypes } from "../../config/schema.js";

/** A weight precision of transformers.js's `pipeline()` (the list: src/config/schema.ts). */
export type EmbeddingDtype = (typeof embeddingDtypes)[number];

/**
 * Each dtype's ONNX file suffix, as transformers.js names them (DEFAULT_DTYPE_SUFFIX_MAPPING in its
 * src/utils/dtypes.js): `onnx/model_quantized.onnx` for q8. A model repository holds the files of the
 * precisions it was exported with.
 */
const DTYPE_SUFFIX: Record<EmbeddingDtype, string> = {
  fp32: "",
  fp16: "_fp16",
  q8: "_quantized",
  int8: "_int8",
  uint8: "_uint8",
  q4: "_q4",
  bnb4: "_bnb4",
  q4f16: "_q4f16",
};

/** The weights file transformers.js opens for a dtype, relative to the model directory. */
export function onnxFileFor(dtype: EmbeddingDtype): string {
  return `onnx/model${DTYPE_SUFFIX[dtype]}.onnx`;
}

/** The files besides the weights that a feature-extraction pipeline reads (config and tokenizer). */
export const MODEL_CONFIG_FILES = ["config.json", "tokenizer.json", "tokenizer_config.json"] as const;

/** Written last by `cairn embeddings download`: what was fetched, from which commit, with its checksums. */
export const MANIFEST_FILE = "cairn-model.json";

export interface ModelManifest {
  id: string;
  /** The commit the files were fetched at: a branch or tag is resolved to it before downloading. */
  revision: string;
  hub: string;
  downloadedAt: string;
  files: Array<{ path: string; size: number; sha256?: string; gitSha1?: string }>;
}

/** Where a configured model lives: a directory named by path, or a hub id under cairn's models folder. */
export interface ModelLocation {
  /** The hub id or, for a directory given by path, its folder name. */
  id: string;
  dir: string;
  /** The folder transformers.js resolves `id` against (env.localModelPath), with a trailing separator. */
  root: string;
}

/** A hub id is `name` or `owner/name`; anything else (absolute, ./x, ~/x, a/b/c) is a path. */
const HUB_ID = /^[A-Za-z0-9][\w.-]*(\/[\w.-]+)?$/;

export function locateModel(model: string, modelsDir: string): ModelLocation {
  const expanded = model.startsWith("~/") ? join(homedir(), model.slice(2)) : model;
  const isPath = isAbsolute(expanded) || model.startsWith(".") || model.startsWith("~") || !HUB_ID.test(model);
  if (isPath) {
    const dir = resolve(expanded);
    return { id: basename(dir), dir, root: `${dirname(dir)}${sep}` };
  }
  return { id: model, dir: join(modelsDir, ...model.split("/")), root: `${modelsDir}${sep}` };
}

/** The manifest of a downloaded model; undefined for a directory cairn did not download (or a damaged one). */
export function readManifest(dir: string): ModelManifest | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), "utf8")) as ModelManifest;
    return typeof manifest.revision === "string" && Array.isArray(manifest.files) ? manifest : undefined;
  } catch {
    return undefined;
  }
}

/** The dtypes whose weights file the directory holds. */
export function dtypesIn(dir: string): EmbeddingDtype[] {
  return embeddingDtypes.filter((dtype) => isFile(join(dir, onnxFileFor(dtype))));
}

/**
 * Why the directory cannot be loaded with this dtype, as one line that says what to do; undefined when
 * the files transformers.js needs are all there.
 */
export function modelProblem(location: ModelLocation, dtype: EmbeddingDtype): string | undefined {
  const download = `run \`cairn embeddings download ${location.id} --dtype ${dtype}\``;
  if (!existsSync(location.dir)) return `no model at ${location.dir}: ${download}`;
  const missing = MODEL_CONFIG_FILES.filter((file) => !isFile(join(location.dir, file)));
  if (missing.length > 0) return `${location.dir} lacks ${missing.join(", ")}: ${download}`;
  if (!isFile(join(location.dir, onnxFileFor(dtype)))) {
    const present = dtypesIn(location.dir);
    const instead = present.length > 0 ? `set embeddings.dtype to ${present.join(" or ")}, or ` : "";
    return `${location.dir} has no ${onnxFileFor(dtype)} (embeddings.dtype ${dtype}): ${instead}${download}`;
  }
  return undefined;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
