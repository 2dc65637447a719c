import { hash } from "node:crypto";
import type { CallCancel } from "./call-signal.ts";
import type { UpstreamResponse } from "./client.ts";
import type { UpstreamError } from "./errors.ts";

/**
 * One upstream flight per read across a fleet (fleet/flights.ts keeps it in Redis): the instance
 * that takes a flight's lease calls, every other one about to make the same call waits for its
 * answer, within a bound, and calls itself when none comes.
 */
export interface FleetFlights {
  /**
   * `call` made once by whichever instance holds the flight's lease, or its answer (or error)
   * heard from that instance; a read only this instance made lately calls at once, beside the
   * lease, and keeps its own call if another instance's lease came first. The flight is named
   * by `name` at a write version: sought at once under `version.view` (the last this instance
   * saw), joined only once `version.now` (read after the read began) shows the view still
   * holds, and sought again under `now` when it does not. Always settles: an own call after
   * the bound, or whenever the fleet cannot tell (`now` undefined: the write version could not
   * be read). `signal` is the call's own: once aborted, a waiter stops waiting. `heard` is told
   * of an answer (or the upstream's error) that came from another instance's call.
   */
  fly(
    name: (writeVersion: string) => string,
    version: FlightVersion,
    call: () => Promise<UpstreamResponse<unknown>>,
    signal: CallCancel,
    heard: (outcome: { status: number; error?: UpstreamError }) => void,
  ): Promise<UpstreamResponse<unknown>>;
}

/** The fleet's write version as a read sees it (upstream/write-version.ts). */
export interface FlightVersion {
  /** The last version this instance read, held at some instant before the read; undefined: none. */
  view: string | undefined;
  /**
   * The version read now, after the read began (asked only when the flight needs it: a read
   * this instance alone makes calls at once); undefined when Redis cannot tell.
   */
  now(): Promise<string | undefined>;
}

/**
 * A flight's name: the local coalescing key (the key's hash, already an HMAC keyed by the fleet's
 * secret, and the call as sent), the cache versions the read was made at, and the fleet's write
 * version read before it. A read after any write names another flight.
 */
export function flightName(
  keyHash: string,
  call: string,
  cacheVersion: string | undefined,
  writeVersion: string,
): string {
  // One call per read: the one-shot digest, without a Hash object's setup.
  const digest = hash("sha256", `${call}\n${cacheVersion ?? ""}\n${writeVersion}`, "base64url");
  return `flight:${keyHash}:${digest.slice(0, 22)}`;
}
