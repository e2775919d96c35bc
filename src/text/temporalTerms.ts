/**
 * Calendar terms for time-aware keyword matching. A conversational memory says "last Friday" or
 * "next month"; the question that needs it says "on 20 January 2023" or "in May". When the memory
 * carries `occurredAt` (when it was said), its relative time expressions are resolved against that
 * moment and indexed as normalized calendar tokens in their own low-weight FTS column; the stored
 * content never changes. Queries map the dates they name to the same tokens.
 *
 * Tokens (UTC calendar, one FTS5 token each, untouched by the porter stemmer):
 *   d20230507  the day          dm0507  the day in any year
 *   m202305    the month        mo05    the month in any year
 *   y2023      the year
 * A date range (last week, a few days ago) yields the month-level tokens of every month it touches;
 * a single day yields all five.
 */

const DAY_MS = 86_400_000;

export const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
] as const;
const MONTH_ABBREVIATIONS = [
  "jan",
  "feb",
  "mar",
  "apr",
  "may",
  "jun",
  "jul",
  "aug",
  "sep",
  "sept",
  "oct",
  "nov",
  "dec",
];
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;

/** A UTC calendar day as epoch days (days since 1970-01-01). */
type EpochDay = number;

/** Accepts epoch milliseconds, an ISO date or date-time, or a Date; undefined when it is not a valid time. */
export function toOccurredAt(value: number | string | Date | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const ms = value instanceof Date ? value.getTime() : typeof value === "number" ? value : Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function parts(day: EpochDay): { y: number; m: number; d: number; weekday: number } {
  const date = new Date(day * DAY_MS);
  return { y: date.getUTCFullYear(), m: date.getUTCMonth() + 1, d: date.getUTCDate(), weekday: date.getUTCDay() };
}

function epochDay(y: number, m: number, d: number): EpochDay {
  return Math.floor(Date.UTC(y, m - 1, d) / DAY_MS);
}

export function monthTokens(y: number, m: number): string[] {
  return [`m${y}${pad(m)}`, `mo${pad(m)}`, `y${y}`];
}

export function dayTokens(day: EpochDay): string[] {
  const { y, m, d } = parts(day);
  return [`d${y}${pad(m)}${pad(d)}`, `dm${pad(m)}${pad(d)}`, ...monthTokens(y, m)];
}

function rangeTokens(from: EpochDay, to: EpochDay): string[] {
  const out: string[] = [];
  for (let day = Math.min(from, to); day <= Math.max(from, to); day++) {
    const { y, m } = parts(day);
    out.push(...monthTokens(y, m));
  }
  return out;
}

function addMonths(y: number, m: number, delta: number): { y: number; m: number } {
  const index = y * 12 + (m - 1) + delta;
  return { y: Math.floor(index / 12), m: (index % 12) + 1 };
}

const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  couple: 2,
  "a couple": 2,
  "a couple of": 2,
  few: 3,
  "a few": 3,
  several: 4,
};
const COUNT = String.raw`(\d{1,2}|a couple of|a couple|a few|several|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)`;
const FUZZY = new Set(["a couple", "a couple of", "a few", "several"]);

/** The days of `ref`'s Monday-to-Sunday week, shifted by `weeks`. */
function weekOf(ref: EpochDay, weeks: number): [EpochDay, EpochDay] {
  const mondayOffset = (parts(ref).weekday + 6) % 7;
  const monday = ref - mondayOffset + 7 * weeks;
  return [monday, monday + 6];
}

/** Saturday and Sunday of the weekend before (-1), around (0) or after (+1) `ref`. */
function weekendOf(ref: EpochDay, which: -1 | 0 | 1): EpochDay[] {
  const weekday = parts(ref).weekday;
  if (which === -1) {
    // The most recent Saturday strictly before ref's day (on Sunday, the day before).
    const saturday = ref - ((weekday - 6 + 7) % 7 || 7);
    return [saturday, saturday + 1].filter((d) => d < ref);
  }
  if (which === 0) {
    if (weekday === 0) return [ref - 1, ref];
    const saturday = ref + ((6 - weekday + 7) % 7);
    return [saturday, saturday + 1];
  }
  const saturday = ref + ((6 - weekday + 7) % 7 || 7);
  return [saturday, saturday + 1];
}

type Resolver = (match: RegExpExecArray, ref: EpochDay) => string[];

/**
 * Relative expressions, each with what it resolves to. Case-insensitive, on word boundaries. Order
 * matters only for overlapping phrases (the longer one first): a span that matched is blanked out.
 */
const RELATIVE: [RegExp, Resolver][] = [
  [/\bthe day before yesterday\b/, (_, ref) => dayTokens(ref - 2)],
  [/\bthe day after tomorrow\b/, (_, ref) => dayTokens(ref + 2)],
  [/\b(?:yesterday|last night)\b/, (_, ref) => dayTokens(ref - 1)],
  [/\b(?:today|tonight|this (?:morning|afternoon|evening))\b/, (_, ref) => dayTokens(ref)],
  [/\btomorrow\b/, (_, ref) => dayTokens(ref + 1)],
  [
    new RegExp(String.raw`\b(last|past|previous|this|next|coming) (${WEEKDAYS.join("|")})\b`),
    (m, ref) => {
      const target = WEEKDAYS.indexOf((m[2] ?? "") as (typeof WEEKDAYS)[number]);
      const weekday = parts(ref).weekday;
      const which = m[1] ?? "";
      if (which === "last" || which === "past" || which === "previous")
        return dayTokens(ref - ((weekday - target + 7) % 7 || 7));
      if (which === "next" || which === "coming") return dayTokens(ref + ((target - weekday + 7) % 7 || 7));
      const [monday] = weekOf(ref, 0);
      return dayTokens(monday + ((target + 6) % 7));
    },
  ],
  [
    /\b(last|past|previous|this|next|coming) weekend\b/,
    (m, ref) => {
      const which = m[1] === "this" ? 0 : m[1] === "next" || m[1] === "coming" ? 1 : -1;
      return weekendOf(ref, which).flatMap(dayTokens);
    },
  ],
  [
    /\b(last|past|previous|this|next|coming) week\b/,
    (m, ref) => {
      const shift = m[1] === "this" ? 0 : m[1] === "next" || m[1] === "coming" ? 1 : -1;
      return rangeTokens(...weekOf(ref, shift));
    },
  ],
  [
    /\b(last|past|previous|this|next|coming) month\b/,
    (m, ref) => {
      const shift = m[1] === "this" ? 0 : m[1] === "next" || m[1] === "coming" ? 1 : -1;
      const { y, m: month } = parts(ref);
      const target = addMonths(y, month, shift);
      return monthTokens(target.y, target.m);
    },
  ],
  [
    /\b(last|past|previous|this|next|coming) year\b/,
    (m, ref) => {
      const shift = m[1] === "this" ? 0 : m[1] === "next" || m[1] === "coming" ? 1 : -1;
      return [`y${parts(ref).y + shift}`];
    },
  ],
  [
    new RegExp(String.raw`\b(?:${COUNT} (day|week|month|year)s? ago|in ${COUNT} (day|week|month|year)s?\b(?! ago))`),
    (m, ref) => {
      const past = m[1] !== undefined;
      const countWord = (past ? m[1] : m[3]) ?? "";
      const unit = (past ? m[2] : m[4]) ?? "";
      const fuzzy = FUZZY.has(countWord);
      const n = /^\d+$/.test(countWord) ? Number(countWord) : (NUMBER_WORDS[countWord] ?? 1);
      const sign = past ? -1 : 1;
      if (unit === "day") return fuzzy ? rangeTokens(ref + sign * 2, ref + sign * (n + 2)) : dayTokens(ref + sign * n);
      if (unit === "week") {
        const center = ref + sign * 7 * n;
        return fuzzy ? rangeTokens(ref + sign * 14, ref + sign * 7 * (n + 1)) : rangeTokens(center - 3, center + 3);
      }
      const { y, m: month } = parts(ref);
      if (unit === "month") {
        if (!fuzzy) {
          const target = addMonths(y, month, sign * n);
          return monthTokens(target.y, target.m);
        }
        const out: string[] = [];
        for (let k = 2; k <= n + 1; k++) {
          const target = addMonths(y, month, sign * k);
          out.push(...monthTokens(target.y, target.m));
        }
        return out;
      }
      return fuzzy ? [2, 3, 4].map((k) => `y${y + sign * k}`) : [`y${y + sign * n}`];
    },
  ],
];

const MONTH_NAME = String.raw`(${MONTHS.join("|")}|${MONTH_ABBREVIATIONS.join("|")})\.?`;
const DAY_NUM = String.raw`(\d{1,2})(?:st|nd|rd|th)?`;
const YEAR = String.raw`((?:19|20)\d{2})`;

function monthIndex(name: string): number {
  const lower = name.toLowerCase().replace(/\.$/, "");
  const full = MONTHS.indexOf(lower as (typeof MONTHS)[number]);
  if (full >= 0) return full + 1;
  const abbreviation = lower === "sept" ? "sep" : lower;
  return MONTHS.findIndex((m) => m.startsWith(abbreviation) && abbreviation.length >= 3) + 1;
}

/** A parsed calendar date, as precise as the text was. */
export interface NamedDate {
  y?: number;
  m?: number;
  d?: number;
}

/**
 * Absolute dates written in text: "8 May, 2023", "May 8th 2023", "on 8 May", "May 2023", "in May",
 * "in 2022", "2023-05-08". Month names count only when capitalized (so "may" the verb and "march"
 * the walk are not dates), unless `anyCase`.
 */
export function namedDates(text: string, anyCase = false, spans: string[] = []): NamedDate[] {
  const out: NamedDate[] = [];
  const flags = anyCase ? "gi" : "g";
  const monthPattern = anyCase
    ? MONTH_NAME
    : String.raw`(${[...MONTHS, ...MONTH_ABBREVIATIONS].map((m) => m[0]?.toUpperCase() + m.slice(1)).join("|")})\.?`;
  let rest = text;
  const take = (re: RegExp, build: (m: RegExpExecArray) => NamedDate | undefined) => {
    rest = rest.replace(re, (...args) => {
      const match = args.slice(0, -2) as unknown as RegExpExecArray;
      const date = build(match);
      if (!date) return args[0] as string;
      out.push(date);
      spans.push(args[0] as string);
      return " ".repeat((args[0] as string).length);
    });
  };
  const valid = (date: NamedDate) =>
    (date.m === undefined || (date.m >= 1 && date.m <= 12)) && (date.d === undefined || (date.d >= 1 && date.d <= 31));
  const keep = (date: NamedDate) => (valid(date) ? date : undefined);
  take(/\b((?:19|20)\d{2})-(\d{2})-(\d{2})\b/g, (m) => keep({ y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) }));
  take(new RegExp(String.raw`\b${DAY_NUM}(?: of)? ${monthPattern},? ${YEAR}\b`, flags), (m) =>
    keep({ d: Number(m[1]), m: monthIndex(m[2] ?? ""), y: Number(m[3]) }),
  );
  take(new RegExp(String.raw`\b${monthPattern} ${DAY_NUM},? ${YEAR}\b`, flags), (m) =>
    keep({ m: monthIndex(m[1] ?? ""), d: Number(m[2]), y: Number(m[3]) }),
  );
  take(new RegExp(String.raw`\b${DAY_NUM}(?: of)? ${monthPattern}(?![\p{L}])`, `${flags}u`), (m) =>
    keep({ d: Number(m[1]), m: monthIndex(m[2] ?? "") }),
  );
  take(new RegExp(String.raw`\b${monthPattern} ${DAY_NUM}\b`, flags), (m) =>
    keep({ m: monthIndex(m[1] ?? ""), d: Number(m[2]) }),
  );
  take(new RegExp(String.raw`\b${monthPattern},? (?:of )?${YEAR}\b`, flags), (m) =>
    keep({ m: monthIndex(m[1] ?? ""), y: Number(m[2]) }),
  );
  // A bare month name: only full names, and only after a preposition for the ambiguous "May".
  const fullMonths = anyCase ? MONTHS.join("|") : MONTHS.map((m) => m[0]?.toUpperCase() + m.slice(1)).join("|");
  take(
    new RegExp(String.raw`\b(?:(in|during|since|until|by|of|early|late|mid|last|next|this) )?(${fullMonths})\b`, flags),
    (m) => {
      const month = monthIndex(m[2] ?? "");
      if (month === 5 && !m[1]) return undefined;
      return { m: month };
    },
  );
  take(/\b(?:in|during|since|of|by|until) ((?:19|20)\d{2})\b/g, (m) => ({ y: Number(m[1]) }));
  return out;
}

/** Tokens for a named date. A missing year is taken from `ref` when given, else the yearless tokens. */
export function namedDateTokens(date: NamedDate, ref?: EpochDay): string[] {
  const year = date.y ?? (ref === undefined ? undefined : parts(ref).y);
  if (date.m !== undefined && date.d !== undefined) {
    if (year !== undefined) return dayTokens(epochDay(year, date.m, date.d));
    return [`dm${pad(date.m)}${pad(date.d)}`, `mo${pad(date.m)}`];
  }
  if (date.m !== undefined) return year !== undefined ? monthTokens(year, date.m) : [`mo${pad(date.m)}`];
  if (date.y !== undefined) return [`y${date.y}`];
  return [];
}

/** The calendar tokens of the moment a memory was said (its own day). */
export function occurredTokens(occurredAt: number): string[] {
  return dayTokens(Math.floor(occurredAt / DAY_MS));
}

/**
 * The calendar tokens of the times a text mentions: relative expressions resolved against
 * `occurredAt`, and absolute dates (a missing year taken from `occurredAt`). Deduplicated,
 * space-separated; "" when there are none.
 */
export function mentionedTimeTerms(content: string, occurredAt: number | undefined): string {
  const out = new Set<string>();
  const ref = occurredAt === undefined ? undefined : Math.floor(occurredAt / DAY_MS);
  if (ref !== undefined) {
    let rest = content.toLowerCase();
    for (const [pattern, resolve] of RELATIVE) {
      const global = new RegExp(pattern.source, "g");
      rest = rest.replace(global, (...args) => {
        const match = args.slice(0, -2) as unknown as RegExpExecArray;
        for (const token of resolve(match, ref)) out.add(token);
        return " ".repeat((args[0] as string).length);
      });
    }
  }
  for (const date of namedDates(content)) {
    // A yearless date in a dated memory is most likely the nearest such date: keep it simple and use
    // the memory's own year.
    for (const token of namedDateTokens(date, ref)) out.add(token);
  }
  return [...out].join(" ");
}

/**
 * The calendar tokens of the dates a query names ("in May 2023", "on 8 May", "in 2022"), at the
 * precision written: a full date gives its day and month tokens, a month its month token, a year its
 * year token. Yearless dates give the yearless tokens. `words` are the query words that spelled them.
 */
export function queryTimeTerms(query: string): { terms: string[]; words: string[] } {
  const out = new Set<string>();
  const spans: string[] = [];
  for (const date of namedDates(query, false, spans)) {
    const tokens = namedDateTokens(date);
    // At the precision written: the day (or day-in-any-year) and its month, the month, or the year.
    const specific = tokens.filter((t) =>
      date.y !== undefined ? /^[dm]\d/.test(t) || tokens.length === 1 : t.startsWith("dm") || t.startsWith("mo"),
    );
    for (const token of specific) out.add(token);
  }
  const words = spans.flatMap((span) => span.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  return { terms: [...out], words: [...new Set(words)] };
}
