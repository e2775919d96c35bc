import { RULES } from "../../src/redact/index.js";

/**
 * Inputs built to make a backtracking regex engine go quadratic or worse: one long line of a
 * repeated trigger (a prefix with no end, a separator with no value, a value with no terminator).
 * Every rule keyword is tried, plus the openings of the context rules.
 */

const UNITS = [
  "a",
  "A",
  "0",
  " ",
  "\n",
  "-",
  "/",
  "=",
  ":",
  "\\",
  "\\n",
  "a1",
  "aB3",
  "Zz9+/",
  "ab-",
  "a.b",
  "a:b@",
  "@@",
  "''",
  '""',
  "<a>",
  "-----",
];

const OPENINGS = [
  "password=",
  "password: ",
  'token = "',
  "api_key: '",
  "secret is ",
  "--password ",
  "-u a:",
  "login a password ",
  "<password>",
  "postgres://u:",
  "x://",
  "Bearer ",
  "Basic ",
  "authorization: ",
  "aws_secret_access_key=",
  "heroku ",
  "-----BEGIN RSA PRIVATE KEY-----\n",
  "eyJhbGciOiJIUzI1NiJ9.eyJ",
  "Mabcdefghijklmnopqrstuvwxyz.",
  "123456:AA",
];

function fill(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

export interface AdversarialInput {
  name: string;
  text: string;
}

/** `exhaustive`: every keyword in five shapes; otherwise the openings and units only. */
export function adversarialInputs(size: number, exhaustive = false): AdversarialInput[] {
  const inputs: AdversarialInput[] = UNITS.map((unit) => ({
    name: `run of ${JSON.stringify(unit)}`,
    text: fill(unit, size),
  }));
  const triggers = exhaustive ? [...new Set([...RULES.flatMap((r) => r.keywords ?? []), ...OPENINGS])] : OPENINGS;
  for (const trigger of triggers) {
    const label = JSON.stringify(trigger);
    inputs.push({ name: `${label} repeated`, text: fill(trigger, size) });
    inputs.push({ name: `${label} then aB3...`, text: trigger + fill("aB3", size - trigger.length) });
    inputs.push({ name: `(${label} a1b2c3 ) repeated`, text: fill(`${trigger}a1b2c3 `, size) });
    if (exhaustive) {
      inputs.push({ name: `${label} then blanks`, text: trigger + fill(" ", size - trigger.length) });
      inputs.push({ name: `(${label}x) repeated`, text: fill(`${trigger}x`, size) });
    }
  }
  return inputs;
}
