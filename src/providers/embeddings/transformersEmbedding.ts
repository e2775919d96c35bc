import { ProviderError } from "../providerError.js";
import type { EmbeddingProvider } from "./types.js";

export interface TransformersEmbeddingOptions {
  /** A local directory holding an ONNX feature-extraction model (no download is attempted). */
  modelPath: string;
  dimensions: number;
}

type Extractor = (
  texts: string[],
  options: { pooling: "mean"; normalize: boolean },
) => Promise<{ tolist(): number[][] }>;

interface TransformersModule {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean };
  pipeline(task: "feature-extraction", model: string): Promise<Extractor>;
}

/**
 * transformers.js with a local model. The package is optional and loaded on first use; when it is
 * not installed the provider reports that (available() false, embed() a config ProviderError).
 */
export class TransformersEmbeddingProvider implements EmbeddingProvider {
  readonly name = "transformers";
  readonly model: string;
  readonly dimensions: number;
  private readonly modelPath: string;
  private extractor: Promise<Extractor> | undefined;

  constructor(options: TransformersEmbeddingOptions) {
    this.modelPath = options.modelPath;
    this.model = `transformers:${options.modelPath.split(/[\\/]/).filter(Boolean).at(-1) ?? options.modelPath}`;
    this.dimensions = options.dimensions;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    this.extractor ??= loadExtractor(this.modelPath);
    const output = await (await this.extractor)(texts, { pooling: "mean", normalize: true });
    return output.tolist().map((v) => Float32Array.from(v));
  }

  async available(): Promise<boolean> {
    try {
      this.extractor ??= loadExtractor(this.modelPath);
      await this.extractor;
      return true;
    } catch {
      this.extractor = undefined;
      return false;
    }
  }
}

async function loadExtractor(modelPath: string): Promise<Extractor> {
  const name = "@huggingface/transformers";
  let module: TransformersModule;
  try {
    module = (await import(name)) as TransformersModule;
  } catch (error) {
    throw new ProviderError({
      provider: "transformers",
      kind: "config",
      message:
        "transformers: the optional package @huggingface/transformers is not installed (npm i @huggingface/transformers)",
      isRetryable: false,
      cause: error,
    });
  }
  module.env.allowRemoteModels = false;
  module.env.allowLocalModels = true;
  return module.pipeline("feature-extraction", modelPath);
}
