import { ReplyError } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import {
  classifyRedisFailure,
  DEGRADED_MS,
  LOG_PERIOD_MS,
  RedisFailures,
} from "../../src/fleet/redis-failures.ts";

const refusal = (message: string) => new ReplyError(message);
let now = 0;
let failures: RedisFailures;
afterEach(() => failures?.close());

describe("a failed Redis command", () => {
  it("is classified by the server's word for it, from a fixed vocabulary", () => {
    expect(classifyRedisFailure(refusal("MOVED 3999 127.0.0.1:6381"))).toMatchObject({
      kind: "MOVED",
      refusal: true,
    });
    expect(
      classifyRedisFailure(refusal("CROSSSLOT Keys in request don't hash to the same slot")),
    ).toMatchObject({ kind: "CROSSSLOT", refusal: true });
    expect(classifyRedisFailure(refusal("OOM command not allowed"))).toMatchObject({ kind: "OOM" });
    expect(classifyRedisFailure(refusal("NOSUCHWORD whatever"))).toMatchObject({ kind: "ERR" });
    expect(
      classifyRedisFailure(new Error("Too many Cluster redirections. Last error: …")),
    ).toMatchObject({ kind: "MOVED", refusal: true });
    expect(classifyRedisFailure(new Error("Command timed out"))).toEqual({
      kind: "timeout",
      refusal: false,
      message: "Command timed out",
    });
    expect(classifyRedisFailure(new Error("Connection is closed."))).toMatchObject({
      kind: "unreachable",
      refusal: false,
    });
  });

  it("counts every failure, degrades on a refusal for a while, and logs once per kind and period", () => {
    now = 0;
    failures = new RedisFailures(() => now);
    const lines: string[] = [];
    const changes: Array<string | undefined> = [];
    failures.onWarning((line) => lines.push(line));
    failures.onDegradedChange((reason) => changes.push(reason));
    failures.record(new Error("Command timed out"));
    expect(failures.degraded()).toBeUndefined();
    expect(lines).toEqual([]);
    failures.record(refusal("OOM command not allowed"));
    failures.record(refusal("OOM command not allowed"));
    expect(failures.degraded()).toBe("OOM: OOM command not allowed");
    expect(changes).toEqual(["OOM: OOM command not allowed"]);
    expect(lines).toHaveLength(1);
    now = DEGRADED_MS;
    expect(failures.degraded()).toBeUndefined();
    now = LOG_PERIOD_MS + 1;
    failures.record(refusal("OOM command not allowed"));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/\(1 more since the last line\)/);
    failures.record(refusal("WRONGTYPE Operation against a key"));
    expect(lines).toHaveLength(3);
    expect([...failures.counts()]).toEqual([
      ["timeout", 1],
      ["OOM", 3],
      ["WRONGTYPE", 1],
    ]);
  });
});
