/**
 * Commander's own error (an unknown command or option, a missing argument or option value) as the one
 * stderr line every other cairn error is: commander prints `error: ...`, then a suggestion on a line of
 * its own (`(Did you mean recall?)`), and the usage hint would be a third.
 * `command` is the top-level command the line named, when it names one: its help is the one to read.
 */
export function usageErrorLine(text: string, command?: string): string {
  const [first = "", ...rest] = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const suggestions = rest.map((line) => {
    const bare = /^\((.*)\)$/.exec(line)?.[1] ?? line;
    return ` (${bare.charAt(0).toLowerCase()}${bare.slice(1)})`;
  });
  const help = command ? `cairn ${command} --help` : "cairn --help";
  return `cairn: ${first.replace(/^error: /, "")}${suggestions.join("")}; run '${help}' for usage\n`;
}
