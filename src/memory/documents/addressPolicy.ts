import { BlockList, isIP } from "node:net";

/**
 * Addresses a fetched URL must not reach unless `workers.documents.allowPrivateAddresses` is true:
 * loopback, link-local (cloud metadata services live there), private and unique-local ranges, the
 * unspecified address, carrier-grade NAT and multicast. A URL fetched for a document is given by a
 * person or an agent; without this an agent talked into ingesting a page could read the user's local
 * services and cloud credentials into memory.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(network, prefix, "ipv6");

/** Why an address may not be fetched, or undefined when it may. IPv4-mapped IPv6 is judged as IPv4. */
export function privateAddressProblem(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, "");
  const mapped = mappedIpv4(bare);
  const family = isIP(mapped ?? bare);
  if (family === 0) return `${address} is not an IP address`;
  const isBlocked = mapped ? blocked.check(mapped, "ipv4") : blocked.check(bare, family === 4 ? "ipv4" : "ipv6");
  return isBlocked
    ? `${address} is a loopback, link-local or private address; set workers.documents.allowPrivateAddresses: true to fetch from it`
    : undefined;
}

/** The IPv4 address an IPv4-mapped IPv6 address carries (`::ffff:127.0.0.1`, or `::ffff:7f00:1` as URLs write it). */
function mappedIpv4(address: string): string | undefined {
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (dotted) return dotted;
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const high = Number.parseInt(hex[1]!, 16);
  const low = Number.parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}
