import { discovered, type ReadRequest, type ReadResult, type SourceAdapter, type SourceFile } from "./adapter.js";
import { readPiFile } from "./pi/readPiFile.js";
import { resumePiFile } from "./pi/resumePiFile.js";
import type { AgentName } from "./types.js";
import { layoutDir, type SkippedPath, walkFiles } from "./walk.js";

/**
 * pi (badlogic/pi-mono) and its fork oh-my-pi share one session format and layout: `<agent dir>/sessions/
 * --<cwd>--/<time>_<id>.jsonl`, plus omp task subagents in `<parent session minus .jsonl>/<task>.jsonl`.
 */
function piFamilyAdapter(agent: AgentName): SourceAdapter {
  return {
    agent,
    async discover(root: string): Promise<SourceFile[]> {
      const skipped: SkippedPath[] = [];
      return discovered(
        agent,
        walkFiles(layoutDir(root, "sessions"), (name) => name.endsWith(".jsonl"), 8, skipped),
        skipped,
      );
    },
    async read(request: ReadRequest): Promise<ReadResult> {
      const { file, resume } = request;
      return resume ? resumePiFile(file.path, resume) : readPiFile(file.path, agent);
    },
  };
}

export const piAdapter: SourceAdapter = piFamilyAdapter("pi");
export const ompAdapter: SourceAdapter = piFamilyAdapter("omp");
