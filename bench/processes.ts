import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";

/** A server under test in its own process, so the RSS read from /proc is its own. */
export interface Child {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Spawns `node args…` and waits (≤ 20 s) for the first http://127.0.0.1:port on its stdout. */
export async function spawnServer(
  args: string[],
  env: Record<string, string> = {},
): Promise<Child> {
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    // Stderr is kept (last 4 kB) for a failed start only: clients cut off at the end of a run make noise.
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start in 20 s`)), 20_000);
    let seen = "";
    let errors = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-4096);
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
    child.once("exit", (code) => reject(new Error(`${args[0]} exited with ${code}: ${errors}`)));
  });
  child.stdout?.resume();
  return {
    url,
    pid: child.pid as number,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** Resident set size in MB: `VmRSS` now, or `VmHWM` (the peak so far). */
export function rssMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
  return match ? Math.round(Number(match[1]) / 102.4) / 10 : Number.NaN;
}
