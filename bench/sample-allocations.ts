import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";

/**
 * Loaded before the gateway (`node bench/sample-allocations.ts src/main.ts`, by
 * bench/profile-allocations.ts): V8's sampling heap profiler, counting what is collected too, so
 * the profile is every byte allocated (sampled), not only what is still alive. With
 * `PROFILE_SURVIVORS=1` it leaves out what young collections free: what is left is what lives
 * long enough to be promoted, which is what makes the old generation grow and be collected. It
 * samples from `PROFILE_AFTER_MS` for `PROFILE_FOR_MS`, then writes `PROFILE_OUT`.
 */
const session = new Session();
session.connect();
await import(new URL(process.argv[2] as string, `file://${process.cwd()}/`).href);
const after = Number(process.env.PROFILE_AFTER_MS);
const span = Number(process.env.PROFILE_FOR_MS);
setTimeout(async () => {
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: process.env.PROFILE_SURVIVORS !== "1",
  });
  setTimeout(async () => {
    const { profile } = await session.post("HeapProfiler.stopSampling");
    writeFileSync(process.env.PROFILE_OUT as string, JSON.stringify(profile));
  }, span);
}, after);
