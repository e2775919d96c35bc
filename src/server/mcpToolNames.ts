/**
 * The tools the MCP server registers (createMcpServer), for `cairn mcp --help`, which must not load the
 * server to list them; a test holds the two lists equal.
 */
export const MCP_TOOL_NAMES = [
  "recall",
  "remember",
  "read",
  "checkpoint",
  "status",
  "review",
  "resolve_review",
  "forget",
  "edit",
  "restore",
  "export",
  "import",
  "ingest_document",
  "documents",
  "forget_document",
] as const;
