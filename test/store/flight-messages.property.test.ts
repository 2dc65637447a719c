import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  FlightListeners,
  type FlightMessage,
  FlightsInAir,
  flightText,
  parseFlightMessage,
} from "../../src/fleet/flights-in-air.ts";

// The flights channel's messages, as every instance reads them: a landed answer survives the
// trip whatever its text, anything else published there parses to nothing, and what is in the
// air does not depend on the order the two messages of a flight arrive in.

const mark = fc.record({
  epoch: fc.stringMatching(/^\d{20}$/),
  seq: fc.integer({ min: 1, max: 1_000_000 }),
});

/** A message heard as bytes, with its answer (if any) decoded, as a waiting read decodes it. */
function answerAsText(message: FlightMessage | undefined): FlightMessage | undefined {
  return message && "answer" in message ? { ...message, answer: String(message.answer) } : message;
}

describe("the flights channel's messages", () => {
  it("carry a landed answer's text as it was written, newlines and all", () => {
    fc.assert(
      fc.property(fc.string(), mark, fc.string(), fc.string(), (name, at, from, answer) => {
        const update = { ...at, from, answer };
        expect(parseFlightMessage(flightText(name, update))).toEqual({ ...update, flight: name });
      }),
    );
  });

  it("read from the bytes Redis delivers what they read from the text, answers kept as bytes", () => {
    // Only the first line is decoded on hearing: the answer is text only for a read that waits.
    const text = fc.string({ unit: "binary" });
    fc.assert(
      fc.property(text, mark, text, text, (name, at, from, answer) => {
        const update = { ...at, from, answer };
        const heard = parseFlightMessage(Buffer.from(flightText(name, update)));
        expect(Buffer.isBuffer(heard && "answer" in heard && heard.answer)).toBe(true);
        expect(answerAsText(heard)).toEqual({ ...update, flight: name });
      }),
    );
    fc.assert(
      fc.property(fc.oneof(text, fc.json()), (any) => {
        const fromText = parseFlightMessage(any);
        const fromBytes = parseFlightMessage(Buffer.from(any));
        expect(answerAsText(fromBytes)).toEqual(fromText);
      }),
    );
  });

  it("read a lease's announcement, a rival's grant, and nothing from text that is neither", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (flight, rival) => {
        expect(parseFlightMessage(JSON.stringify({ flight, rival }))).toEqual({ flight, rival });
      }),
    );
    fc.assert(
      fc.property(mark, fc.string(), fc.integer({ min: 1, max: 60_000 }), (at, from, leaseMs) => {
        const text = JSON.stringify({ flight: "flight:x", started: { ...at, from, leaseMs } });
        expect(parseFlightMessage(text)).toEqual({
          flight: "flight:x",
          started: { ...at, from, leaseMs },
        });
      }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        const parsed = parseFlightMessage(text);
        if (parsed === undefined) return;
        // Whatever parses names a flight and is one of the three messages, well formed.
        expect(typeof parsed.flight).toBe("string");
        if ("started" in parsed) expect(parsed.started.leaseMs).toBeGreaterThan(0);
        else if ("rival" in parsed) expect(typeof parsed.rival).toBe("string");
        else expect(typeof parsed.answer).toBe("string");
      }),
    );
    for (const text of ["", "{", "null", "[]", '{"flight":1}', '{"flight":"f","started":{}}']) {
      expect(parseFlightMessage(text)).toBeUndefined();
    }
  });

  it("leave nothing in the air once a flight's answer is heard, in either order", () => {
    fc.assert(
      fc.property(mark, fc.boolean(), (at, landedFirst) => {
        const inAir = new FlightsInAir();
        const started: FlightMessage = {
          flight: "flight:x",
          started: { ...at, from: "owner:1", leaseMs: 5_000 },
        };
        const landed: FlightMessage = { ...at, flight: "flight:x", from: "owner:1", answer: "{}" };
        for (const message of landedFirst ? [landed, started] : [started, landed]) {
          inAir.heard(message);
        }
        expect(inAir.find("flight:x")).toBeUndefined();
        // The next flight of the same name is in the air again once announced.
        inAir.heard({ ...started, started: { ...started.started, seq: at.seq + 1 } });
        expect(inAir.find("flight:x")).toEqual({ epoch: at.epoch, seq: at.seq + 1 });
      }),
    );
  });

  it("leave an instance's own flight out of the air once it lands, whenever its echoes come", () => {
    fc.assert(
      fc.property(mark, fc.constantFrom("none", "started", "landed", "both"), (at, echoes) => {
        // A read that begins once the owner's answer is out must not wait on it as in the air:
        // the store's echo of the lease's grant may come after the landing.
        const listeners = new FlightListeners("instance-a");
        const holder = listeners.attempt();
        listeners.owned(
          "flight:x",
          holder,
          { ...at, leaseMs: 5_000 },
          { announced: false, rival: false },
        );
        // In the air here from the grant, whether or not the store announces it.
        expect(listeners.inAir.find("flight:x")).toEqual(at);
        const update = { ...at, from: "instance-a", answer: "{}" };
        expect(listeners.landing("flight:x", { ...at, from: "instance-a" }, () => "{}")).toEqual({
          holder,
          announced: false,
        });
        const started: FlightMessage = {
          flight: "flight:x",
          started: { ...at, from: holder, leaseMs: 5_000 },
        };
        if (echoes === "started" || echoes === "both") listeners.heard(started);
        if (echoes === "landed" || echoes === "both") {
          listeners.heard({ ...update, flight: "flight:x" });
        }
        expect(listeners.inAir.find("flight:x")).toBeUndefined();
      }),
    );
  });
});

type Heard = "own" | "ownShared" | "ownInAir" | "rivalStarted" | "rivalLanded" | "refused";

describe("an instance's memory of who flies a flight", () => {
  it("calls a flight its own only while no rival came since its last grant that had none", () => {
    const heard = fc.constantFrom<Heard>(
      "own",
      "ownShared",
      "ownInAir",
      "rivalStarted",
      "rivalLanded",
      "refused",
    );
    fc.assert(
      fc.property(fc.array(heard, { maxLength: 12 }), fc.boolean(), (sequence, echoed) => {
        const listeners = new FlightListeners("instance-a");
        const epoch = "00000000000000000001";
        for (const [seq, kind] of sequence.entries()) {
          const at = { epoch, seq: seq + 1 };
          if (kind === "refused") {
            listeners.refused("flight:x");
            continue;
          }
          if (kind === "rivalStarted" || kind === "rivalLanded") {
            listeners.heard(
              kind === "rivalStarted"
                ? { flight: "flight:x", started: { ...at, from: "instance-b:7", leaseMs: 5_000 } }
                : { ...at, flight: "flight:x", from: "instance-b", answer: "{}" },
            );
            continue;
          }
          const holder = listeners.attempt();
          listeners.owned(
            "flight:x",
            holder,
            { ...at, leaseMs: 5_000 },
            { announced: false, rival: kind === "ownShared" },
          );
          // The store's echo of this instance's own grant is no rival's.
          if (echoed || kind === "ownInAir") {
            listeners.heard({
              flight: "flight:x",
              started: { ...at, from: holder, leaseMs: 5_000 },
            });
          }
          if (kind !== "ownInAir") {
            listeners.landing("flight:x", { ...at, from: "instance-a" }, () => "{}");
          }
        }
        // A grant with no rival (no other instance took the lease since, none was refused it)
        // makes the flight this instance's alone again; anything else heard makes it a rival's.
        let rivalled = false;
        for (const kind of sequence) rivalled = kind !== "own" && kind !== "ownInAir";
        const landed = sequence.at(-1) === "own" || sequence.at(-1) === "ownShared";
        expect(listeners.flownAlone("flight:x")).toBe(landed && !rivalled);
        expect(listeners.flownAlone("flight:other")).toBe(false);
      }),
    );
  });

  it("forgets a rival once it has not been heard for the window", async () => {
    const listeners = new FlightListeners("instance-a", 50);
    const land = (seq: number) => {
      // Granted as a contended flight's: announced, so shared.
      listeners.owned(
        "flight:x",
        listeners.attempt(),
        { epoch: "00000000000000000001", seq, leaseMs: 5_000 },
        { announced: true, rival: false },
      );
      listeners.landing(
        "flight:x",
        {
          epoch: "00000000000000000001",
          seq,
          from: "instance-a",
        },
        () => "{}",
      );
    };
    listeners.refused("flight:x");
    land(1);
    expect(listeners.flownAlone("flight:x")).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(listeners.flownAlone("flight:x")).toBe(true);
  });
});
