import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** An MCP client that talks to the HTTP app in-process: no port, the same requests as over the wire. */
export async function inProcessMcpClient(
  app: { request: (url: string, init?: RequestInit) => Response | Promise<Response> },
  name: string,
): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" });
  const fetchApp = (url: string | URL, init?: RequestInit) => Promise.resolve(app.request(url.toString(), init));
  await client.connect(new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), { fetch: fetchApp }));
  return client;
}

/** Calls a tool: whether it failed, and its text. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: Array<{ text?: string }>;
  };
  return { isError: result.isError ?? false, text: result.content.map((part) => part.text ?? "").join("") };
}
