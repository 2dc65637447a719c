import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createFleetFlights } from "../../src/fleet/flights.ts";
import {
  createMemoryPollerStore,
  MemoryPollerServer,
  type PollerStore,
} from "../../src/fleet/poller-store.ts";
import type { FleetRedis } from "../../src/fleet/redis.ts";
import { createFleetWriteVersion } from "../../src/fleet/write-version.ts";
import type { UpstreamClient, UpstreamResponse } from "../../src/upstream/client.ts";
import { createKeyHasher } from "../../src/upstream/key-memory.ts";
import { withSharing } from "../../src/upstream/sharing.ts";

// Past one machine: fleets of up to 100 instances, each the real sharing, flights and write
// version code over the in-process pollers' store, with what each step would cost Redis counted
// as the Redis store sends it (a lease script per flight() taken, one script per land(), a GET per
// look the write version sends). The load is the bench's: 48 clients, one after another's
// answer, reading one key's organization through the instances in turn, against an upstream
// 20 ms away. A flight is announced only once it was contended lately, so each instance that
// waits on it asks the store once first: a share of a flight's cost that falls as the load lasts.

const CLIENTS = 48;
const OPERATIONS_PER_CLIENT = 24;
const LATENCY_MS = 20;
const FLEETS = [1, 3, 10, 30, 100];
/** A flight's Redis commands in a load's second half: its owner's two, and a few early askers. */
const LATER_COMMANDS_PER_FLIGHT = 2.5;

interface Figures {
  calls: number;
  operations: number;
  /** Flights owned: each one upstream call shared by the fleet. */
  flights: number;
  /** Of those, flights granted without the store (an instance's alone lately): no command. */
  soloFlights: number;
  /** Instances' takes of a flight's lease (the owner's and each other's), one script each. */
  takes: number;
  /** What the flights cost Redis: lease scripts and answers. */
  flightCommands: number;
  /** The GETs of the write version: flights' naming and local joins' looks, a turn's shared. */
  looks: number;
}

/** A load's figures, and the same as they stood halfway through its operations. */
async function simulate(instances: number): Promise<{ whole: Figures; half: Figures }> {
  const server = new MemoryPollerServer();
  const figures: Figures = {
    calls: 0,
    operations: 0,
    flights: 0,
    soloFlights: 0,
    takes: 0,
    flightCommands: 0,
    looks: 0,
  };
  const upstream: UpstreamClient = {
    async request<T>(): Promise<UpstreamResponse<T>> {
      figures.calls += 1;
      await new Promise((resolve) => setTimeout(resolve, LATENCY_MS));
      return {
        status: 200,
        body: { name: "org" } as T,
        rateLimit: undefined,
        requestId: undefined,
      };
    },
    isReachable: async () => true,
    close: async () => undefined,
  };
  // What the write version asks of Redis: its key, read (and counted), never written here.
  const redis = {
    key: (name: string) => name,
    client: {
      async get() {
        figures.looks += 1;
        return "one-write-version";
      },
      set: async () => "OK",
    },
    sharedOrLocal: (shared: () => Promise<unknown>) => shared(),
    onAvailabilityChange: () => () => undefined,
  } as unknown as FleetRedis;
  const gateways = Array.from({ length: instances }, () => {
    const version = createFleetWriteVersion(redis);
    const store = createMemoryPollerStore({ intervalMs: 1_000, server });
    // A flight granted here without the store (solo) costs Redis nothing, nor does its landing.
    const solo = new Set<string>();
    const counted: PollerStore = {
      ...store,
      async flight(name, leaseMs) {
        const tick = await store.flight(name, leaseMs);
        if (tick.role === "owner") figures.flights += 1;
        if (tick.role === "owner" && tick.solo) {
          figures.soloFlights += 1;
          solo.add(name);
          return tick;
        }
        figures.takes += 1;
        figures.flightCommands += 1;
        return tick;
      },
      async land(name, mark, answer) {
        if (!solo.delete(name)) figures.flightCommands += 1;
        return store.land(name, mark, answer);
      },
    };
    const flights = createFleetFlights(counted, { maxWaitMs: 1_000, registry: new Registry() });
    return withSharing(upstream, {
      coalesce: true,
      keyHash: createKeyHasher("a-simulated-fleet-secret-of-32-characters"),
      fleet: version,
      flights,
    });
  });
  let half: Figures | undefined;
  // Each instance reads the version once as it starts, as a gateway does: not counted.
  await new Promise((resolve) => setTimeout(resolve, 10));
  figures.looks = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      const gateway = gateways[client % instances] as UpstreamClient;
      for (let i = 0; i < OPERATIONS_PER_CLIENT; i++) {
        await gateway.request({
          method: "GET",
          path: "/v1/organization",
          authorization: "Bearer k_simulated",
        });
        figures.operations += 1;
        if (figures.operations === (CLIENTS * OPERATIONS_PER_CLIENT) / 2) half = { ...figures };
      }
    }),
  );
  if (half === undefined) throw new Error("the load never reached its half");
  return { whole: figures, half };
}

describe("fleet flights as the fleet grows (a simulation)", () => {
  it("keeps calls per operation and a flight's Redis cost flat up to 100 instances", async () => {
    const rows: string[] = [];
    let alone: number | undefined;
    for (const instances of FLEETS) {
      const { whole: figures, half } = await simulate(instances);
      const callsPerOp = figures.calls / figures.operations;
      const perFlight = figures.flightCommands / figures.flights;
      const soloShare = figures.soloFlights / figures.flights;
      // Once each instance has asked the store within the rival window: what a flight costs.
      const laterPerFlight =
        (figures.flightCommands - half.flightCommands) / (figures.flights - half.flights);
      const looksPerOp = figures.looks / figures.operations;
      alone ??= callsPerOp;
      rows.push(
        `${instances} instances: ${callsPerOp.toFixed(4)} calls/op (${(callsPerOp / alone).toFixed(2)}× one), per flight ${perFlight.toFixed(2)} Redis commands (${(figures.takes / figures.flights).toFixed(2)} lease scripts, ${(100 * soloShare).toFixed(0)}% flown without the store; ${laterPerFlight.toFixed(2)} in the load's second half), ${looksPerOp.toFixed(2)} GETs of the write version per operation`,
      );
      // One flight per read, however many instances: the calls of one instance's load.
      expect(callsPerOp).toBeLessThanOrEqual(1.1 * alone);
      // A flight costs its owner's lease script and landing, and a lease script of an instance
      // that asked before it heard the flight announced: a constant, whatever the number of
      // instances and of operations waiting on it, once the flight is known to be contended.
      // Before that (its first refusal within the rival window), each instance that waits asks
      // once: at most one lease script per instance per window.
      expect(figures.flightCommands).toBeLessThanOrEqual(4 * figures.flights + instances);
      // And once each has: one flat constant, however many instances.
      expect(laterPerFlight).toBeLessThanOrEqual(LATER_COMMANDS_PER_FLIGHT);
      // Reads that look in one turn of an instance's event loop share one GET.
      expect(looksPerOp).toBeLessThanOrEqual(1);
    }
    console.log(rows.join("\n"));
  });
});
