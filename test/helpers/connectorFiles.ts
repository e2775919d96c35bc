import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** Writes an agent config file, creating its folders (the way an agent's first run would). */
export function writeConfig(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

export const readConfig = (file: string): string => readFileSync(file, "utf8");

/** The contents of the `<file>.cairn-backup-*` copies beside `file`, oldest name first. */
export function backupsOf(file: string): string[] {
  const name = file.split("/").at(-1) ?? "";
  return readdirSync(dirname(file))
    .filter((entry) => entry.startsWith(`${name}.cairn-backup-`))
    .sort()
    .map((entry) => readConfig(join(dirname(file), entry)));
}

export const actionsOf = (changes: { action: string }[]): string[] => changes.map((change) => change.action);
