import { describe, expect, it } from "vitest";
import { scriptPerTest } from "../support/scripts.ts";

// The gateway as shipped serves, beside its own metrics, prom-client's default process metrics:
// what every Node service's dashboard reads (event-loop delay, heap, GC, handles, CPU).

const start = scriptPerTest("src/main.ts", { LOG_LEVEL: "error" });

describe("/metrics of the gateway as shipped", () => {
  it("holds prom-client's process metrics beside the gateway's own", async () => {
    const run = start({ PORT: "0" });
    const graphiql = /GraphiQL at (\S+)/.exec(await run.stdoutWith("other keys"))?.[1] as string;
    const text = await (await fetch(new URL("/metrics", graphiql))).text();
    for (const name of [
      "voicegraph_operations_total",
      "nodejs_eventloop_lag_seconds",
      "nodejs_heap_size_used_bytes",
      "nodejs_gc_duration_seconds",
      "nodejs_active_handles_total",
      "process_cpu_user_seconds_total",
    ]) {
      expect(text, name).toMatch(new RegExp(`^# TYPE ${name} `, "m"));
    }
  });
});
