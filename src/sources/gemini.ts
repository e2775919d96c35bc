import { discovered, type ReadRequest, type ReadResult, type SourceAdapter, type SourceFile } from "./adapter.js";
import { isChatFile } from "./gemini/geminiLayout.js";
import { readGeminiFile } from "./gemini/readGeminiFile.js";
import { layoutDir, type SkippedPath, walkFiles } from "./walk.js";

/**
 * Gemini CLI chats: `<.gemini>/tmp/<project slug or sha256>/chats/session-*.json[l]`, subagents in
 * `chats/<parentSessionId>/<id>.jsonl`. The CLI resolves its home from `GEMINI_CLI_HOME` when set.
 */
export const geminiAdapter: SourceAdapter = {
  agent: "gemini",
  async discover(root: string): Promise<SourceFile[]> {
    const tmpDir = layoutDir(root, "tmp");
    // Outside a Gemini home (`--source gemini=<folder>`), any session file below the folder is a chat.
    const accept =
      tmpDir === root
        ? (name: string) => /^session-.+\.jsonl?$/.test(name)
        : (_name: string, path: string) => isChatFile(tmpDir, path);
    const skipped: SkippedPath[] = [];
    return discovered("gemini", walkFiles(tmpDir, accept, 3, skipped), skipped);
  },
  async read(request: ReadRequest): Promise<ReadResult> {
    // Whole-file formats: a resume is never offered, so request.resume is never set.
    return readGeminiFile(request.file.path);
  },
};
