import { hostname } from "node:os";
import { nodeCrypto } from "../../util/nodeCrypto.js";
import { processAlive } from "../../util/processAlive.js";

/** Where a lease's holder runs: the process id and host encoded in its token. */
export interface LeaseOwner {
  pid: number;
  host: string;
}

/** The machine and the liveness probe a queue judges lease owners by (injectable for tests). */
export interface OwnerProbe {
  host: string;
  pid: number;
  isAlive: (pid: number) => boolean;
}

export const localProbe: OwnerProbe = { host: hostname(), pid: process.pid, isAlive: processAlive };

/**
 * A lease token: `<pid>@<host>/<uuid>`. Tokens are only ever compared whole, so older tokens (a bare
 * uuid) stay valid; they just cannot be traced to a process.
 */
export function newLeaseToken(probe: OwnerProbe = localProbe): string {
  return `${probe.pid}@${probe.host}/${nodeCrypto().randomUUID()}`;
}

export function leaseOwnerOf(token: string | null): LeaseOwner | undefined {
  const match = token ? /^(\d+)@([^/]+)\//.exec(token) : null;
  return match ? { pid: Number(match[1]), host: match[2]! } : undefined;
}

/**
 * True only when the holder provably stopped: it ran on this host and no process has its id any more.
 * A holder on another machine, or of an older token, is never assumed dead; its lease runs out instead.
 */
export function ownerIsDead(token: string | null, probe: OwnerProbe = localProbe): boolean {
  const owner = leaseOwnerOf(token);
  return owner !== undefined && owner.host === probe.host && owner.pid !== probe.pid && !probe.isAlive(owner.pid);
}
