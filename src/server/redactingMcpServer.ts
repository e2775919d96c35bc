import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { redactText } from "../redact/redact.js";

/**
 * An MCP server whose error answers leave redacted, whichever transport carries them (stdio, HTTP, a
 * test's in-memory pair). A tool's failure can quote its arguments (a URL, a path), and the SDK's own
 * errors quote the request (`Tool <name> not found`, an argument that failed validation): both pass
 * here, at the edge, rather than at each place that words an error.
 */
export class RedactingMcpServer extends McpServer {
  override async connect(transport: Transport): Promise<void> {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(redactedError(message), options);
    return super.connect(transport);
  }
}

interface ContentPart {
  type?: unknown;
  text?: unknown;
}

/** The message with the text of its error (a JSON-RPC error, or a tool result marked isError) redacted. */
export function redactedError(message: JSONRPCMessage): JSONRPCMessage {
  if ("error" in message)
    return { ...message, error: { ...message.error, message: redactText(message.error.message) } };
  if (!("result" in message) || message.result.isError !== true || !Array.isArray(message.result.content))
    return message;
  const content = (message.result.content as ContentPart[]).map((part) =>
    part.type === "text" && typeof part.text === "string" ? { ...part, text: redactText(part.text) } : part,
  );
  return { ...message, result: { ...message.result, content } };
}
