import type { Command } from "commander";
import { embeddingDtypes } from "../../config/schema.js";
import { withCairn } from "../context.js";
import { nonEmpty, oneOf } from "../flags.js";
import { invocation } from "../invocation.js";
import { printJson, printLine } from "../output.js";

interface DownloadFlags {
  dtype?: (typeof embeddingDtypes)[number];
  revision?: string;
  hub?: string;
}

export function registerEmbeddings(program: Command): void {
  const embeddings = program.command("embeddings").description("manage the local embedding model (transformers)");

  embeddings
    .command("download [model]")
    .description(
      "download a transformers.js model from the hub into $CAIRN_HOME/models, checksums verified (the only time cairn downloads a model)",
    )
    .option(
      "--dtype <dtype>",
      "which weights: fp32, fp16, q8, ... (default: embeddings.dtype)",
      oneOf("--dtype", embeddingDtypes),
    )
    .option(
      "--revision <rev>",
      "commit, branch or tag (default: embeddings.revision, else main, pinned to its commit)",
      nonEmpty("--revision", "a revision"),
    )
    .option(
      "--hub <url>",
      "the hub's address (default: $HF_ENDPOINT, else https://huggingface.co)",
      nonEmpty("--hub", "a URL"),
    )
    .option("--json", "print JSON")
    .action(async (model: string | undefined, flags: DownloadFlags, command: Command) => {
      await withCairn(command, async (cairn, global) => {
        const { downloadModel } = await import("../../providers/embeddings/modelDownload.js");
        const { DEFAULT_MODEL_HUB, defaultEmbeddingModels } = await import("../../providers/embeddings/defaults.js");
        const { env, stderr } = invocation();
        const settings = cairn.config.embeddings;
        const configured = settings.provider === "transformers" ? settings.model : undefined;
        const id = model ?? configured ?? defaultEmbeddingModels.transformers;
        const dtype = flags.dtype ?? settings.dtype;
        const result = await downloadModel({
          id,
          revision: flags.revision ?? settings.revision ?? "main",
          dtype,
          hub: flags.hub ?? env.HF_ENDPOINT?.trim() ?? DEFAULT_MODEL_HUB,
          modelsDir: cairn.paths.models,
          ...(env.HF_TOKEN ? { token: env.HF_TOKEN } : {}),
          onFile: global.json ? undefined : (line) => stderr(`${line}\n`),
        });
        if (global.json) return printJson({ ...result.manifest, dir: result.dir, dtype, fetched: result.fetched });
        const bytes = result.manifest.files.reduce((sum, file) => sum + file.size, 0);
        printLine(
          `${id} at ${result.manifest.revision} (dtype ${dtype}): ${result.manifest.files.length} files, ${(bytes / 1e6).toFixed(1)} MB in ${result.dir}, checksums verified`,
        );
        const use = [
          settings.provider === "transformers" ? undefined : "cairn config set embeddings.provider transformers",
          id === (settings.model ?? defaultEmbeddingModels.transformers)
            ? undefined
            : `cairn config set embeddings.model ${id}`,
          dtype === settings.dtype ? undefined : `cairn config set embeddings.dtype ${dtype}`,
        ].filter((step) => step !== undefined);
        if (use.length > 0) printLine(`to use it: ${use.join("; ")}`);
        if (settings.revision !== result.manifest.revision) {
          printLine(`to pin this commit: cairn config set embeddings.revision ${result.manifest.revision}`);
        }
      });
    });
}
