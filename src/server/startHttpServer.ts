import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import type { Hono } from "hono";
import { CairnError } from "../util/errors.js";

export interface RunningHttpServer {
  /** Base URL, with the port actually bound (useful with port 0). */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Listens with a Hono app on host:port; rejects with a one-line CairnError when the port is taken. */
export async function startHttpServer(app: Hono, options: { host: string; port: number }): Promise<RunningHttpServer> {
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      const reason =
        error.code === "EADDRINUSE" ? "the port is in use (is another cairn serve running?)" : error.message;
      reject(new CairnError("listen_failed", `cannot listen on ${options.host}:${options.port}: ${reason}`));
    };
    const onListening = () => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(options.port, options.host);
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive connections would hold close() open; requests in flight still finish.
        server.closeIdleConnections();
      }),
  };
}
