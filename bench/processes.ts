import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import { createServer } from "node:net";

const START_WORDS = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    scripts: { start: string };
  }
).scripts.start.split(/\s+/);

/**
 * The V8 flags `npm start` gives the gateway (package.json): the bench starts it with the same
 * ones, so the figures are those of the served process (README: Benchmarks, memory).
 */
export const GATEWAY_NODE_FLAGS: string[] = START_WORDS.filter((word) => word.startsWith("--"));

/**
 * The per-key bounds raised for a load of one key: the fairness bound (docs/limits.md) would
 * refuse its calls, answered with errors by yoga's path, and those refusals would be measured.
 */
export const ONE_KEY_BOUNDS: Readonly<Record<string, string>> = {
  UPSTREAM_CONNECTIONS_PER_KEY: "32",
  UPSTREAM_QUEUE_PER_KEY: "100000",
};

/**
 * The variables `npm start` sets before `exec node` (`NAME=value`, or `NAME=${NAME-value}`: the
 * value unless the environment has one), given to every gateway (`src/main.ts`) the bench starts.
 */
export const GATEWAY_ENV: Record<string, string> = Object.fromEntries(
  START_WORDS.flatMap((word) => {
    const match = /^([A-Z_]+)=(?:\$\{\1:?-(.*)\}|(.*))$/.exec(word);
    if (!match) return [];
    const name = match[1] as string;
    return [[name, process.env[name] ?? match[2] ?? match[3] ?? ""]];
  }),
);

/** A server under test in its own process, so the RSS read from /proc is its own. */
/** A loopback port that was free a moment ago, for a server that must be told its port. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Child {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Spawns `node args…` and waits (≤ 20 s) for the first http://127.0.0.1:port on its stdout. */
export async function spawnServer(
  args: string[],
  env: Record<string, string> = {},
  /** For a server that prints nothing: wait (≤ 30 s) until it answers here instead. */
  knownUrl?: string,
  /** The program; default this Node (`node args…`). */
  program: string = process.execPath,
): Promise<Child> {
  const gateway = args.some((arg) => arg.endsWith("src/main.ts"));
  // An empty value unsets the variable (a before/after without one of npm start's).
  const environment = Object.fromEntries(
    Object.entries({ ...process.env, ...(gateway ? GATEWAY_ENV : {}), ...env }).filter(
      ([, value]) => value !== "",
    ),
  );
  const child: ChildProcess = spawn(program, args, {
    env: environment,
    // Stderr is kept (last 4 kB) for a failed start only: clients cut off at the end of a run make noise.
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start in 30 s`)), 30_000);
    let seen = "";
    let errors = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-4096);
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = knownUrl ? null : /http:\/\/127\.0\.0\.1:\d+/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
    if (knownUrl) {
      void waitUntilUp(knownUrl).then((up) => {
        clearTimeout(timer);
        resolve(up);
      }, reject);
    }
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

/**
 * The child's side of `spawnServer`, for the bench's own servers: listens on a free loopback
 * port, prints the URL `spawnServer` waits for, and on SIGTERM closes the server and what
 * `onStop` closes (its upstream pool), then exits.
 */
export function serveUntilStopped(server: Server, onStop: () => unknown): void {
  server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    if (address && typeof address === "object") {
      console.log(`listening http://127.0.0.1:${address.port}`);
    }
  });
  process.once("SIGTERM", () => {
    server.close();
    void onStop();
    process.exit(0);
  });
}

/** Resident set size in MB: `VmRSS` now, or `VmHWM` (the peak so far). */
export function rssMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
  return match ? Math.round(Number(match[1]) / 102.4) / 10 : Number.NaN;
}

async function waitUntilUp(url: string): Promise<string> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      await fetch(`${url}/healthcheck`);
      return url;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${url} did not answer in 30 s`);
}

/**
 * CPU time (user and system) the process has used so far, in milliseconds, from /proc: divided by
 * the requests it served, a figure that a busy machine's stolen time does not change as it
 * changes a rate.
 */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Linux's USER_HZ, the unit of /proc's CPU times: 100 on every mainstream architecture. */
const CLOCK_TICKS_PER_SECOND = 100;
