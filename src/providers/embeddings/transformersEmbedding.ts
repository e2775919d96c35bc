import { join } from "node:path";
import { errorMessage } from "../../util/errors.js";
import { ProviderError } from "../providerError.js";
import { toUnitVectors } from "./toUnitVectors.js";
import {
  type EmbeddingDtype,
  locateModel,
  type ModelLocation,
  modelProblem,
  onnxFileFor,
  readManifest,
} from "./transformersModel.js";
import type { EmbeddingProvider, EmbeddingStatus } from "./types.js";

export interface TransformersEmbeddingOptions {
  /** A hub id looked up under `modelsDir`, or a model directory's path (absolute, ./ or ~/). */
  model: string;
  /** Where `cairn embeddings download` puts models: `<CAIRN_HOME>/models`. */
  modelsDir: string;
  dimensions: number;
  dtype: EmbeddingDtype;
  /** Texts per call into the model: the ONNX runtime pads a batch to its longest text. */
  batchSize: number;
  /** The library, for tests at the module boundary; by default the optional package, imported on first use. */
  loadLibrary?: () => Promise<TransformersLibrary>;
}

/** The part of @huggingface/transformers (v3 and v4) this provider uses. */
export interface TransformersLibrary {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  pipeline(
    task: "feature-extraction",
    model: string,
    options: { dtype: EmbeddingDtype; local_files_only: boolean },
  ): Promise<FeatureExtractor>;
}

export type FeatureExtractor = (
  texts: string[],
  options: { pooling: "mean"; normalize: boolean },
) => Promise<{ tolist(): number[][] }>;

const PROVIDER = "transformers";
const PACKAGE = "@huggingface/transformers";

/**
 * A local ONNX model through transformers.js, never a download: the files come from
 * `cairn embeddings download` or a directory the user points at. The package is optional and loaded
 * on first use; whatever is missing (the package, the directory, the dtype's weights) is reported by
 * available() and status() and thrown by embed() as a config ProviderError whose message says what to do.
 */
export class TransformersEmbeddingProvider implements EmbeddingProvider {
  readonly name = PROVIDER;
  readonly model: string;
  readonly dimensions: number;
  private readonly location: ModelLocation;
  private readonly dtype: EmbeddingDtype;
  private readonly batchSize: number;
  private readonly loadLibrary: () => Promise<TransformersLibrary>;
  private extractor: Promise<FeatureExtractor> | undefined;

  constructor(options: TransformersEmbeddingOptions) {
    this.location = locateModel(options.model, options.modelsDir);
    this.dtype = options.dtype;
    this.batchSize = options.batchSize;
    this.dimensions = options.dimensions;
    // The dtype is part of the vector space: other weights give other vectors.
    this.model = `${PROVIDER}:${this.location.id}:${options.dtype}`;
    this.loadLibrary = options.loadLibrary ?? importLibrary;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const extractor = await this.load();
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      const batch = texts.slice(start, start + this.batchSize);
      let output: { tolist(): number[][] };
      try {
        output = await extractor(batch, { pooling: "mean", normalize: true });
      } catch (error) {
        throw failure(`the model failed on a batch of ${batch.length}: ${firstLine(errorMessage(error))}`, error);
      }
      vectors.push(...toUnitVectors(PROVIDER, output.tolist(), batch.length, this.dimensions));
    }
    return vectors;
  }

  async available(): Promise<boolean> {
    return (await this.status()).ready;
  }

  async status(): Promise<EmbeddingStatus> {
    try {
      await this.load();
    } catch (error) {
      return { ready: false, detail: firstLine(errorMessage(error)) };
    }
    const manifest = readManifest(this.location.dir);
    const revision = manifest ? `revision ${manifest.revision}` : "revision unknown (not downloaded by cairn)";
    const file = join(this.location.dir, onnxFileFor(this.dtype));
    return { ready: true, detail: `${this.location.id} (${revision}, dtype ${this.dtype}): ${file}` };
  }

  /** The pipeline, loaded once; a failed load is forgotten, so a model downloaded later is picked up. */
  private load(): Promise<FeatureExtractor> {
    this.extractor ??= this.open().catch((error: unknown) => {
      this.extractor = undefined;
      throw error;
    });
    return this.extractor;
  }

  private async open(): Promise<FeatureExtractor> {
    const problem = modelProblem(this.location, this.dtype);
    if (problem) throw failure(problem);
    let library: TransformersLibrary;
    try {
      library = await this.loadLibrary();
    } catch (error) {
      const install = `run \`npm install -g ${PACKAGE}\` (or install it beside cairn)`;
      throw failure(`the optional package ${PACKAGE} is not installed: ${install}`, error);
    }
    // Never a download behind the user's back: models come from `cairn embeddings download` only.
    library.env.allowRemoteModels = false;
    library.env.allowLocalModels = true;
    library.env.localModelPath = this.location.root;
    try {
      return await library.pipeline("feature-extraction", this.location.id, {
        dtype: this.dtype,
        local_files_only: true,
      });
    } catch (error) {
      throw failure(`could not load ${this.location.dir}: ${firstLine(errorMessage(error))}`, error);
    }
  }
}

async function importLibrary(): Promise<TransformersLibrary> {
  // A variable, so bundlers and the type checker leave the optional package alone.
  const name = PACKAGE;
  return (await import(name)) as TransformersLibrary;
}

function failure(message: string, cause?: unknown): ProviderError {
  return new ProviderError({
    provider: PROVIDER,
    kind: "config",
    message: `${PROVIDER}: ${message}`,
    isRetryable: false,
    ...(cause === undefined ? {} : { cause }),
  });
}

const firstLine = (text: string) => text.split("\n", 1)[0] ?? "";
