import type { LoadResult } from "./load.ts";

/**
 * Seconds of its own load each compared server gets before its first measured round. A fresh
 * Node process serves slower while V8 optimises its hot functions: on the distinct load here
 * the fair floor's CPU per request fell for about 8 s of load, voicegraph's (more code to tier
 * up) for about 15 s, from over twice the steady figure. One second of warm-up measured mostly
 * that, and the rounds after it kept falling; the rows compare processes that have served.
 */
export const WARM_LOAD_SECONDS = 15;
/** The warm-up's steps, each reported as its own rate. */
export const WARM_STEP_SECONDS = 3;

/**
 * Loads a server for `WARM_LOAD_SECONDS` in steps of a few seconds, and returns each step's
 * req/s: how fast a fresh process becomes a serving one (the warm-up line of the results).
 */
export async function warmUp(run: (seconds: number) => Promise<LoadResult>): Promise<number[]> {
  const rates: number[] = [];
  for (let done = 0; done < WARM_LOAD_SECONDS; done += WARM_STEP_SECONDS) {
    rates.push((await run(WARM_STEP_SECONDS)).rps);
  }
  return rates;
}
