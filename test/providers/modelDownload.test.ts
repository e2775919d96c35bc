import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { downloadModel } from "../../src/providers/embeddings/modelDownload.js";
import { TransformersEmbeddingProvider } from "../../src/providers/embeddings/transformersEmbedding.js";
import { ProviderError } from "../../src/providers/providerError.js";
import { type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";
import { runCliAsync } from "../helpers/runCli.js";
import { tempDir } from "../helpers/tempDir.js";
import { stubTransformersLibrary } from "../helpers/transformersStub.js";

const ID = "acme/mini-embed";
const COMMIT = "0123456789abcdef0123456789abcdef01234567";
const TOKEN = "hf_SecretTokenNeverQuoted0123456789";

/** A tiny model repository: what the hub stores at one commit. */
const FILES: Record<string, Buffer> = {
  "config.json": Buffer.from('{"model_type":"bert","hidden_size":32}'),
  "tokenizer.json": Buffer.from('{"model":{"type":"WordLevel","vocab":{"[UNK]":0,"hello":1}}}'),
  "tokenizer_config.json": Buffer.from('{"model_max_length":128}'),
  "README.md": Buffer.from("# mini-embed"),
  "onnx/model.onnx": Buffer.alloc(3000, 7),
  "onnx/model_quantized.onnx": Buffer.alloc(1500, 3),
};
const LFS = new Set(["onnx/model.onnx", "onnx/model_quantized.onnx"]);

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const gitSha1 = (bytes: Buffer) => createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");

/** The hub's listing with `blobs=true`: git files carry their blob id, LFS files their SHA-256. */
function siblings(files = FILES) {
  return Object.entries(files).map(([rfilename, bytes]) =>
    LFS.has(rfilename)
      ? {
          rfilename,
          blobId: gitSha1(Buffer.from("pointer")),
          size: 134,
          lfs: { sha256: sha256(bytes), size: bytes.length, pointerSize: 134 },
        }
      : { rfilename, blobId: gitSha1(bytes), size: bytes.length },
  );
}

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A hub speaking the real paths: /api/models/{id}/revision/{rev}?blobs=true and /{id}/resolve/{commit}/{file}. */
async function startHub(options: { serve?: (path: string) => Buffer | undefined; listing?: unknown[] } = {}) {
  server = await startLoopbackServer((req, res) => {
    const info = req.path.match(/^\/api\/models\/acme\/mini-embed\/revision\/([^?]+)\?blobs=true$/);
    if (info) {
      if (info[1] !== "main" && info[1] !== COMMIT) return { status: 404, body: { error: "Revision Not Found" } };
      return { body: { id: ID, sha: COMMIT, siblings: options.listing ?? siblings() } };
    }
    const file = req.path.match(new RegExp(`^/acme/mini-embed/resolve/${COMMIT}/(.+)$`));
    const bytes = file ? (options.serve?.(file[1]!) ?? FILES[file[1]!]) : undefined;
    if (!bytes) return { status: 404, body: "Entry not found" };
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(bytes.length) });
    res.end(bytes);
    return undefined;
  });
  return server;
}

const fileRequests = (hub: LoopbackServer) =>
  hub.requests.filter((r) => r.path.includes("/resolve/")).map((r) => r.path);

describe("cairn embeddings download (a loopback hub, no internet)", () => {
  it("fetches the config, the tokenizer and the dtype's weights at the branch's commit, each checksum verified", async () => {
    const hub = await startHub();
    const modelsDir = tempDir();
    const result = await downloadModel({ id: ID, revision: "main", dtype: "q8", hub: hub.url, modelsDir });
    const dir = join(modelsDir, "acme", "mini-embed");
    expect(result.dir).toBe(dir);
    for (const file of ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model_quantized.onnx"]) {
      expect(readFileSync(join(dir, file)).equals(FILES[file]!), file).toBe(true);
    }
    // Only what the pipeline reads, and every file from the commit the branch named, not the branch.
    expect(existsSync(join(dir, "README.md"))).toBe(false);
    expect(existsSync(join(dir, "onnx", "model.onnx"))).toBe(false);
    expect(fileRequests(hub).every((path) => path.includes(`/resolve/${COMMIT}/`))).toBe(true);
    expect(result.manifest).toMatchObject({ id: ID, revision: COMMIT });
    expect(result.manifest.files).toContainEqual({
      path: "onnx/model_quantized.onnx",
      size: 1500,
      sha256: sha256(FILES["onnx/model_quantized.onnx"]!),
    });

    // The provider then loads it and names the commit.
    const provider = new TransformersEmbeddingProvider({
      model: ID,
      modelsDir,
      dimensions: 32,
      dtype: "q8",
      batchSize: 4,
      loadLibrary: async () => stubTransformersLibrary(32),
    });
    expect((await provider.status()).detail).toBe(
      `${ID} (revision ${COMMIT}, dtype q8): ${join(dir, "onnx", "model_quantized.onnx")}`,
    );
  });

  it("keeps what is already there with the right checksum: a second run fetches nothing", async () => {
    const hub = await startHub();
    const modelsDir = tempDir();
    await downloadModel({ id: ID, revision: COMMIT, dtype: "q8", hub: hub.url, modelsDir });
    const before = fileRequests(hub).length;
    const again = await downloadModel({ id: ID, revision: COMMIT, dtype: "q8", hub: hub.url, modelsDir });
    expect(again.fetched).toEqual([]);
    expect(fileRequests(hub).length).toBe(before);
  });

  it("refuses a file whose bytes do not match the hub's checksum, keeps nothing of it and writes no manifest", async () => {
    const hub = await startHub({
      serve: (path) => (path === "onnx/model_quantized.onnx" ? Buffer.alloc(1500, 4) : undefined),
    });
    const modelsDir = tempDir();
    const error = await downloadModel({ id: ID, revision: "main", dtype: "q8", hub: hub.url, modelsDir }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toMatch(
      /^model-download: onnx\/model_quantized\.onnx does not match the hub's checksum \(sha256 [0-9a-f]{64}, expected [0-9a-f]{64}\): nothing was kept/,
    );
    const onnx = join(modelsDir, "acme", "mini-embed", "onnx");
    expect(readdirSync(onnx)).toEqual([]);
    expect(existsSync(join(modelsDir, "acme", "mini-embed", "cairn-model.json"))).toBe(false);
  });

  it("refuses a git file that was changed too (its blob SHA-1 is checked)", async () => {
    const hub = await startHub({
      serve: (path) => (path === "config.json" ? Buffer.from('{"model_type":"evil"}') : undefined),
    });
    await expect(
      downloadModel({ id: ID, revision: "main", dtype: "q8", hub: hub.url, modelsDir: tempDir() }),
    ).rejects.toThrow(/config\.json does not match the hub's checksum/);
  });

  it("names the dtypes the revision offers when the asked one is missing", async () => {
    const hub = await startHub();
    await expect(
      downloadModel({ id: ID, revision: "main", dtype: "fp16", hub: hub.url, modelsDir: tempDir() }),
    ).rejects.toThrow(`model-download: ${ID} at main has no onnx/model_fp16.onnx (dtype fp16): use --dtype fp32 or q8`);
  });

  it("refuses a file the hub lists without a checksum", async () => {
    const listing = siblings().map((s) => (s.rfilename === "tokenizer.json" ? { rfilename: s.rfilename } : s));
    const hub = await startHub({ listing });
    await expect(
      downloadModel({ id: ID, revision: "main", dtype: "q8", hub: hub.url, modelsDir: tempDir() }),
    ).rejects.toThrow(
      "model-download: the hub listed no checksum for tokenizer.json: refusing a file that cannot be verified",
    );
  });

  it("says which model or revision the hub does not have, and never quotes the token", async () => {
    const hub = await startHub();
    await expect(
      downloadModel({ id: ID, revision: "v9", dtype: "q8", hub: hub.url, modelsDir: tempDir(), token: TOKEN }),
    ).rejects.toThrow(`the hub at ${hub.url} has no model ${ID} at v9 (HTTP 404): check the id and the revision`);
    expect(hub.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    server = await startLoopbackServer(() => ({ status: 500, body: { error: `token ${TOKEN} rejected` } }));
    const error = await downloadModel({
      id: ID,
      revision: "main",
      dtype: "q8",
      hub: server.url,
      modelsDir: tempDir(),
      token: TOKEN,
    }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^model-download: HTTP 500/);
    expect((error as Error).message).not.toContain(TOKEN);
  });
});

describe("the embeddings download command", () => {
  it("downloads into $CAIRN_HOME/models, says how to use it, and doctor then finds the model", async () => {
    const hub = await startHub();
    const home = tempDir("cairn-download-");
    const env = { CAIRN_HOME: join(home, "cairn"), HOME: home };
    const run = await runCliAsync(["embeddings", "download", ID, "--hub", hub.url], { env });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      `${ID} at ${COMMIT} (dtype q8): 4 files, 0.0 MB in ${join(home, "cairn", "models", "acme", "mini-embed")}, checksums verified`,
    );
    expect(run.stdout).toContain(
      `to use it: cairn config set embeddings.provider transformers; cairn config set embeddings.model ${ID}`,
    );
    expect(run.stderr).toContain("onnx/model_quantized.onnx: 1500 bytes, checksum verified");

    // The files are found; what is left is the optional package, which is not installed here.
    const doctor = await runCliAsync(["doctor"], {
      env: { ...env, CAIRN_EMBEDDINGS_PROVIDER: "transformers", CAIRN_EMBEDDINGS_MODEL: ID },
    });
    expect(doctor.stdout).toMatch(
      /^embeddings {4}transformers NOT ready .*@huggingface\/transformers is not installed/m,
    );
  });

  it("rejects an unknown dtype in one line before any request", async () => {
    const hub = await startHub();
    const home = tempDir("cairn-download-");
    const run = await runCliAsync(["embeddings", "download", "--dtype", "q3", "--hub", hub.url], {
      env: { CAIRN_HOME: join(home, "cairn"), HOME: home },
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr.trim()).toMatch(
      /^cairn: --dtype must be one of fp32, fp16, q8, int8, uint8, q4, bnb4, q4f16 \(got "q3"\)$/,
    );
    expect(hub.requests).toEqual([]);
  });
});
