import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A tiny sentence-embedding model in the layout transformers.js loads, built byte by byte: a BERT
 * config, a WordPiece tokenizer over `words`, and an ONNX graph whose `last_hidden_state` is each
 * token's row of an embedding table times its attention mask (Gather, Cast, Unsqueeze, Mul; opset 13).
 * The feature-extraction pipeline's mean pooling then gives a text the mean of its words' rows, so
 * the expected vector of any text is known. Protobuf is written by hand (field numbers from onnx.proto),
 * so the test needs no ONNX tooling.
 */
export function writeTinyModel(dir: string, words: string[], table: number[][], fileName = "model.onnx"): void {
  mkdirSync(join(dir, "onnx"), { recursive: true });
  const vocab = Object.fromEntries(["[PAD]", "[UNK]", ...words].map((word, id) => [word, id]));
  const dimensions = table[0]!.length;
  writeFileSync(
    join(dir, "config.json"),
    JSON.stringify({
      model_type: "bert",
      architectures: ["BertModel"],
      hidden_size: dimensions,
      vocab_size: words.length + 2,
    }),
  );
  writeFileSync(
    join(dir, "tokenizer_config.json"),
    JSON.stringify({
      tokenizer_class: "BertTokenizer",
      pad_token: "[PAD]",
      unk_token: "[UNK]",
      model_max_length: 64,
      do_lower_case: true,
    }),
  );
  writeFileSync(
    join(dir, "tokenizer.json"),
    JSON.stringify({
      version: "1.0",
      truncation: null,
      padding: null,
      added_tokens: [
        { id: 0, content: "[PAD]", single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
        { id: 1, content: "[UNK]", single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
      ],
      normalizer: {
        type: "BertNormalizer",
        clean_text: true,
        handle_chinese_chars: true,
        strip_accents: null,
        lowercase: true,
      },
      pre_tokenizer: { type: "BertPreTokenizer" },
      post_processor: null,
      decoder: { type: "WordPiece", prefix: "##", cleanup: true },
      model: {
        type: "WordPiece",
        unk_token: "[UNK]",
        continuing_subword_prefix: "##",
        max_input_chars_per_word: 100,
        vocab,
      },
    }),
  );
  // Rows for [PAD] and [UNK] are zero: an unknown word adds nothing but still counts in the mean.
  const rows = [new Array(dimensions).fill(0), new Array(dimensions).fill(0), ...table];
  writeFileSync(join(dir, "onnx", fileName), onnxModel(rows));
}

const FLOAT = 1;
const INT64 = 7;

function onnxModel(rows: number[][]): Buffer {
  const dimensions = rows[0]!.length;
  const weights = Buffer.from(Float32Array.from(rows.flat()).buffer);
  const axes = Buffer.alloc(8);
  axes.writeBigInt64LE(2n);
  const graph = Buffer.concat([
    field(1, node("Gather", ["table", "input_ids"], ["embedded"])),
    field(1, node("Cast", ["attention_mask"], ["mask_float"], [attribute("to", FLOAT)])),
    field(1, node("Unsqueeze", ["mask_float", "axes"], ["mask"])),
    field(1, node("Mul", ["embedded", "mask"], ["last_hidden_state"])),
    field(2, text("tiny")),
    field(5, tensor("table", FLOAT, [rows.length, dimensions], weights)),
    field(5, tensor("axes", INT64, [1], axes)),
    field(11, valueInfo("input_ids", INT64, ["batch", "sequence"])),
    field(11, valueInfo("attention_mask", INT64, ["batch", "sequence"])),
    field(12, valueInfo("last_hidden_state", FLOAT, ["batch", "sequence", dimensions])),
  ]);
  const opset = Buffer.concat([field(1, text("")), varintField(2, 13)]);
  return Buffer.concat([varintField(1, 7), field(2, text("cairn-test")), field(7, graph), field(8, opset)]);
}

function node(op: string, inputs: string[], outputs: string[], attributes: Buffer[] = []): Buffer {
  return Buffer.concat([
    ...inputs.map((name) => field(1, text(name))),
    ...outputs.map((name) => field(2, text(name))),
    field(3, text(`${op}_${outputs[0]}`)),
    field(4, text(op)),
    ...attributes.map((a) => field(5, a)),
  ]);
}

/** An INT attribute (AttributeProto.type 2). */
function attribute(name: string, value: number): Buffer {
  return Buffer.concat([field(1, text(name)), varintField(3, value), varintField(20, 2)]);
}

function tensor(name: string, type: number, dims: number[], raw: Buffer): Buffer {
  return Buffer.concat([
    ...dims.map((d) => varintField(1, d)),
    varintField(2, type),
    field(8, text(name)),
    field(9, raw),
  ]);
}

function valueInfo(name: string, type: number, dims: Array<number | string>): Buffer {
  const shape = Buffer.concat(dims.map((d) => field(1, typeof d === "number" ? varintField(1, d) : field(2, text(d)))));
  const tensorType = Buffer.concat([varintField(1, type), field(2, shape)]);
  return Buffer.concat([field(1, text(name)), field(2, field(1, tensorType))]);
}

const text = (value: string) => Buffer.from(value, "utf8");

/** A length-delimited field (wire type 2). */
function field(number: number, payload: Buffer): Buffer {
  return Buffer.concat([varint((number << 3) | 2), varint(payload.length), payload]);
}

/** A varint field (wire type 0). */
function varintField(number: number, value: number): Buffer {
  return Buffer.concat([varint(number << 3), varint(value)]);
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let v = value;
  while (v > 0x7f) {
    bytes.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  bytes.push(v);
  return Buffer.from(bytes);
}
