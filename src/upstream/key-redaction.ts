import { parseAuthorization } from "./authorization.ts";
import { isJsonObject } from "./json.ts";

/** What stands where a piece of the key was. */
export const REDACTED = "[REDACTED]";

/**
 * The shortest run of the key (or of one of its encodings) that is redacted. Shorter pieces say
 * too little of a real key to matter, and would make every short word a suspect.
 */
export const KEY_RUN = 8;

/** Keys shorter than this are not redacted at all (nothing that short is a real key). */
export const SHORTEST_KEY = 4;

/**
 * The token of an Authorization value: what follows the scheme (`Bearer sk_…` → `sk_…`), or the
 * whole value when it has no scheme.
 */
export function tokenOf(authorization: string): string {
  return parseAuthorization(authorization).token;
}

/**
 * Everything an upstream might echo of a key, spelled out: the key and `Bearer <key>` as they
 * are, URL-encoded (`Bearer%20…`, `Bearer+…`, every byte as `%xx`), JSON-escaped (`\"`, and every
 * character as `\uXXXX`), in hex, and in base64 and base64url at each of the three byte
 * alignments, so the base64 of any piece of the key is a run of one of them.
 */
function spellings(token: string): string[] {
  const forms: string[] = [];
  // A key shorter than a run is redacted whole; its `Bearer ` forms would take in neighbours.
  for (const plain of token.length < KEY_RUN ? [token] : [token, `Bearer ${token}`]) {
    const bytes = Buffer.from(plain, "utf8");
    forms.push(
      plain,
      encodeURIComponent(plain),
      encodeURIComponent(plain).replaceAll("%20", "+"),
      [...bytes].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join(""),
      JSON.stringify(plain).slice(1, -1),
      [...plain].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
      bytes.toString("hex"),
    );
    for (const shift of [0, 1, 2]) {
      const shifted = bytes.subarray(shift);
      // The last group of a base64 text depends on where the text ends: a piece that ends where
      // the key does matches the whole encoding, any other matches its whole groups.
      const whole = shifted.subarray(0, shifted.length - (shifted.length % 3));
      for (const part of [shifted, whole]) {
        forms.push(part.toString("base64"), part.toString("base64url"));
      }
    }
  }
  return forms;
}

/**
 * Lower-cases ASCII letters only, so every index of the folded text is the index of the same
 * character in the original (`toLowerCase` may change the length of some non-ASCII texts).
 */
function fold(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (run) => run.toLowerCase()) : text;
}

/**
 * The one redaction of a key: every run of `KEY_RUN` or more characters of the key or
 * of one of its spellings, in any case, is replaced with `[REDACTED]`. Built once per key: a set
 * of the spellings' runs, so a text is read once, whatever the number of spellings.
 */
export class KeyRedactor {
  readonly #runs: Set<string>;
  readonly #run: number;

  constructor(authorization: string) {
    const token = tokenOf(authorization);
    this.#run = Math.min(KEY_RUN, token.length);
    this.#runs = new Set();
    if (token.length < SHORTEST_KEY) return;
    for (const spelling of spellings(token)) {
      const folded = fold(spelling);
      for (let start = 0; start + this.#run <= folded.length; start++) {
        this.#runs.add(folded.slice(start, start + this.#run));
      }
    }
  }

  /** Whether the text holds a run of the key in any spelling. */
  finds(text: string): boolean {
    return this.#covered(text) !== undefined;
  }

  /** The text with every run of the key, in any spelling, replaced by `[REDACTED]`. */
  text(text: string): string {
    const covered = this.#covered(text);
    if (covered === undefined) return text;
    let out = "";
    let at = 0;
    for (let [start, end] of covered) {
      // A run of `Bearer <key>` may begin or end at a space: the space stays, for legibility.
      while (start < end && /\s/.test(text[start] as string)) start++;
      while (end > start && /\s/.test(text[end - 1] as string)) end--;
      out += `${text.slice(at, start)}${REDACTED}`;
      at = end;
    }
    return out + text.slice(at);
  }

  /** A deep copy of a JSON value with every string, and every object key, redacted. */
  json<T>(value: T): T {
    if (this.#runs.size === 0) return value;
    if (typeof value === "string") return this.text(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.json(item)) as T;
    if (isJsonObject(value)) {
      const copy: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) copy[this.text(key)] = this.json(item);
      return copy as T;
    }
    return value;
  }

  /** The merged [start, end) ranges of the text that are runs of the key; undefined for none. */
  #covered(text: string): Array<[number, number]> | undefined {
    const run = this.#run;
    if (this.#runs.size === 0 || text.length < run) return undefined;
    const folded = fold(text);
    let ranges: Array<[number, number]> | undefined;
    for (let start = 0; start + run <= folded.length; start++) {
      if (!this.#runs.has(folded.slice(start, start + run))) continue;
      ranges ??= [];
      const last = ranges[ranges.length - 1];
      if (last !== undefined && start <= last[1]) last[1] = start + run;
      else ranges.push([start, start + run]);
    }
    return ranges;
  }
}
