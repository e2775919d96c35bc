/**
 * The list items of every section of a raw memory whose heading matches `heading`, one line each (an
 * item's continuation lines joined to it). Stage 1, offline or a model, writes its raw memory in `##`
 * sections; phase 2 reads a section's items rather than guess from prose.
 */
export function sectionItems(rawMemory: string, heading: RegExp): string[] {
  const items: string[] = [];
  let inside = false;
  for (const line of rawMemory.split("\n")) {
    if (/^#{1,6}\s/.test(line)) {
      inside = heading.test(line);
      continue;
    }
    if (!inside) continue;
    const item = /^\s{0,3}(?:[-*+]|\d+[.)])\s+(.*\S)/.exec(line)?.[1];
    if (item !== undefined) items.push(item);
    else if (line.trim() !== "" && items.length > 0) items[items.length - 1] += ` ${line.trim()}`;
  }
  return items;
}
