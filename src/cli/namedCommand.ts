/**
 * The command an argument list names: its first operand after the root program's own options, or
 * undefined when there is none or something else comes first (help, version, an unknown option).
 * Node built-ins only and no imports: the bin uses it before anything of the program is loaded.
 */
export function namedCommand(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--home") i++;
    else if (!arg.startsWith("--home=")) return arg.startsWith("-") ? undefined : arg;
  }
  return undefined;
}
