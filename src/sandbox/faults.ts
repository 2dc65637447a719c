import type { Fault } from "./server.ts";

/** What the pipeline does with a request before (or instead of) handling it normally. */
export type FaultAction =
  | { kind: "none"; delayMs: number }
  | { kind: "hang"; delayMs: number }
  | { kind: "destroy"; delayMs: number }
  | {
      kind: "answer";
      delayMs: number;
      status: number;
      body: unknown;
      headers: Record<string, string>;
    };

/**
 * Injected faults, matched in the order they were added; each affects `times` matching
 * requests and is then dropped.
 */
export class FaultQueue {
  readonly #faults: Array<{ fault: Fault; left: number }> = [];

  add(fault: Fault): void {
    this.#faults.push({ fault, left: fault.times ?? 1 });
  }

  clear(): void {
    this.#faults.length = 0;
  }

  /** Consumes the first fault matching the request, if any, and says what to do. */
  take(method: string, path: string): FaultAction {
    const index = this.#faults.findIndex(({ fault }) => matches(fault, method, path));
    const entry = this.#faults[index];
    if (entry === undefined) return { kind: "none", delayMs: 0 };
    entry.left -= 1;
    if (entry.left <= 0) this.#faults.splice(index, 1);
    const { fault } = entry;
    const delayMs = fault.delayMs ?? 0;
    if (fault.hang) return { kind: "hang", delayMs };
    if (fault.destroy) return { kind: "destroy", delayMs };
    if (fault.status !== undefined) {
      return {
        kind: "answer",
        delayMs,
        status: fault.status,
        body: fault.body,
        headers: fault.headers ?? {},
      };
    }
    return { kind: "none", delayMs };
  }
}

function matches(fault: Fault, method: string, path: string): boolean {
  if (fault.method !== undefined && fault.method.toUpperCase() !== method) return false;
  if (fault.path === undefined) return true;
  if (typeof fault.path === "string") return fault.path === path;
  fault.path.lastIndex = 0; // a /g or /y regex would otherwise remember the previous match
  return fault.path.test(path);
}
