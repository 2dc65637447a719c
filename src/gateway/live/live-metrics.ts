import { Gauge, type Registry } from "prom-client";
import type { LiveHub } from "./live-hub.ts";

/** `voicegraph_live_pollers{role}`: the live-query pollers this instance polls, or follows. */
export function registerLiveMetrics(registry: Registry, hub: LiveHub): void {
  new Gauge({
    name: "voicegraph_live_pollers",
    help: "This instance's live-query pollers by role: owned (it reads the upstream) or followed (another instance of the fleet does).",
    labelNames: ["role"],
    registers: [registry],
    collect() {
      const owned = hub.ownedPollerCount;
      this.set({ role: "owned" }, owned);
      this.set({ role: "followed" }, hub.pollerCount - owned);
    },
  });
}
