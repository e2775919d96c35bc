const MAX_INPUT_BYTES = 1024 * 1024;

/**
 * Reads the JSON an agent passes to a hook on stdin. Tolerant by design, because a hook must never fail
 * the agent: a terminal, an empty or endless stream, or text that is not a JSON object all give `{}`.
 * The wait is bounded so a runner that keeps stdin open cannot stall the agent's start.
 */
export async function readHookStdin(
  stdin: NodeJS.ReadStream = process.stdin,
  waitMs = 300,
): Promise<Record<string, unknown>> {
  if (stdin.isTTY) return {};
  const text = await new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => {
      clearTimeout(timer);
      stdin.removeAllListeners("data").removeAllListeners("end").removeAllListeners("error");
      stdin.pause();
      // An unref'd stream no longer keeps the process alive once the hook has answered.
      (stdin as { unref?: () => void }).unref?.();
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    const timer = setTimeout(finish, waitMs);
    stdin.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_INPUT_BYTES) chunks.push(chunk);
      else finish();
    });
    stdin.once("end", finish);
    stdin.once("error", finish);
  });
  return parseHookInput(text);
}

export function parseHookInput(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
