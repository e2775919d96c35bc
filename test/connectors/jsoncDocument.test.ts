import { parse } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { editJsoncLike, parseJsoncObject } from "../../src/connectors/jsoncDocument.js";

/** The edits cairn makes to a settings file, on the shapes a hand-kept file takes. */
describe("editJsoncLike", () => {
  const cases: [string, string, Record<string, unknown>, string][] = [
    [
      "a member after one with a line comment gets its own line; the comment stays",
      '{\n  "a": 1 // one\n}\n',
      { a: 1, b: { c: [1, 2] } },
      '{\n  "a": 1, // one\n  "b": {\n    "c": [\n      1,\n      2\n    ]\n  }\n}\n',
    ],
    ["after a block comment", '{\n  "a": 1 /* one */\n}', { a: 1, b: 2 }, '{\n  "a": 1, /* one */\n  "b": 2\n}'],
    [
      "after a string holding // and /*, which are no comments",
      '{\n  "u": "http://x/*y*/" // z\n}\n',
      { u: "http://x/*y*/", b: 2 },
      '{\n  "u": "http://x/*y*/", // z\n  "b": 2\n}\n',
    ],
    [
      "into an object holding only a comment",
      "{\n  // nothing yet\n}\n",
      { mcp: { cairn: true } },
      '{\n  "mcp": {\n    "cairn": true\n  }\n  // nothing yet\n}\n',
    ],
    ["a list written on one line", '{"l": [1,2]}', { l: [1, 2, 3] }, '{"l": [1,2,\n    3]}'],
    [
      "a changed value, nothing around it",
      '{\n  "a": { "x": "old" }, // keep\n  "b": 1,\n}\n',
      { a: { x: "new" }, b: 1 },
      '{\n  "a": { "x": "new" }, // keep\n  "b": 1,\n}\n',
    ],
  ];

  it.each(cases)("%s, and the reverse edit gives the bytes back", (_name, text, value, expected) => {
    const edited = editJsoncLike(text, value);
    expect(edited).toBe(expected);
    expect(parse(edited, [], { allowTrailingComma: true })).toEqual(value);
    expect(editJsoncLike(edited, parseJsoncObject(text, "f", "x"))).toBe(text);
  });

  it("removes a last list item with its comma and comment, without merging its neighbours", () => {
    expect(editJsoncLike('{"l": [1,2]}', { l: [1] })).toBe('{"l": [1]}');
    expect(editJsoncLike('{"l": [1, // one\n 2, // two\n]}', { l: [1] })).toBe('{"l": [1, // one\n]}');
  });

  it("writes a new or blank file whole, in two-space JSON", () => {
    expect(editJsoncLike(null, { a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}\n');
    expect(editJsoncLike("  \n", { a: 1 })).toBe('{\n  "a": 1\n}\n');
  });
});

describe("parseJsoncObject", () => {
  it("reads comments and trailing commas, and says where a file that is not JSONC breaks", () => {
    expect(parseJsoncObject('// x\n{ "a": [1,], /* y */ "b": "//",\n}', "f", "x")).toEqual({ a: [1], b: "//" });
    expect(() => parseJsoncObject('{\n  "a": 1\n  "b": 2\n}', "/h/settings.json", "cairn install gemini")).toThrow(
      "/h/settings.json is not valid JSON, even with comments allowed (CommaExpected at line 3, column 3), so cairn changed nothing; fix it and run 'cairn install gemini' again",
    );
    expect(() => parseJsoncObject("[1]", "/h/settings.json", "cairn install gemini")).toThrow(
      "/h/settings.json does not hold a JSON object, so cairn changed nothing; fix it and run 'cairn install gemini' again",
    );
  });
});
