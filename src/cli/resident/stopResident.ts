import { connect } from "node:net";
import { BUILD_ID, type ResidentRequest } from "./protocol.js";
import { socketOfHome, socketPathHolds } from "./socketOfHome.js";

/** How long the caller waits for the process to answer and its socket to go. */
const STOP_WAIT_MS = 3000;

export type StopOutcome = { stopped: true } | { stopped: false; reason: string };

/**
 * Asks the process answering on memory root `home`'s socket to end, and waits until its socket is
 * gone. Only a resident cairn started by itself agrees; `cairn serve` declines (it is the user's
 * daemon). For commands that need the store to themselves (`cairn doctor --repair`) and for
 * `cairn serve`, which takes over the socket.
 */
export async function stopResident(home: string): Promise<StopOutcome> {
  const place = socketOfHome(home);
  const socketThere = () => socketPathHolds(place.path) === "socket";
  if (!socketThere()) return { stopped: false, reason: "no process listens" };
  const request: ResidentRequest = {
    build: BUILD_ID,
    home,
    args: [],
    cwd: home,
    env: {},
    stdout: { isTTY: false },
    stderr: { isTTY: false },
    deadline: Date.now() + STOP_WAIT_MS,
    stop: true,
  };
  const verdict = await new Promise<{ accepted?: true; declined?: string } | undefined>((done) => {
    const socket = connect(place.path);
    let buffered = "";
    const finish = (answer: { accepted?: true; declined?: string } | undefined) => {
      socket.destroy();
      done(answer);
    };
    socket.setEncoding("utf8");
    socket.setTimeout(STOP_WAIT_MS, () => finish(undefined));
    socket.on("error", () => finish(undefined));
    socket.on("close", () => finish(undefined));
    socket.on("connect", () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on("data", (chunk: string) => {
      buffered += chunk;
      const end = buffered.indexOf("\n");
      if (end < 0) return;
      try {
        finish(JSON.parse(buffered.slice(0, end)) as { accepted?: true; declined?: string });
      } catch {
        finish(undefined);
      }
    });
  });
  if (!verdict) return { stopped: false, reason: "the process did not answer" };
  if (verdict.accepted !== true) return { stopped: false, reason: verdict.declined ?? "declined" };
  const until = Date.now() + STOP_WAIT_MS;
  while (socketThere() && Date.now() < until) await new Promise((wait) => setTimeout(wait, 25));
  return socketThere() ? { stopped: false, reason: "its socket is still there" } : { stopped: true };
}
