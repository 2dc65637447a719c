import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The server binary the fleet suite runs (FLEET_REDIS_SERVER, e.g. valkey-server): whatever
 * speaks the Redis protocol and takes redis-server's options.
 */
export const REDIS_SERVER = process.env.FLEET_REDIS_SERVER || "redis-server";

/** A real `redis-server` of the test's own, on a free loopback port (never a shared one). */
export interface RedisServer {
  /** e.g. "redis://127.0.0.1:41234" */
  readonly url: string;
  readonly port: number;
  /** Its working directory (a cluster node keeps its nodes.conf there). */
  readonly dir: string;
  /** Kills the server for real (SIGKILL): what a lost Redis looks like to the fleet. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty (a Redis that came back after a crash). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Whether the server binary is installed on this machine. */
export function redisServerInstalled(): boolean {
  return spawnSync(REDIS_SERVER, ["--version"], { stdio: "ignore" }).status === 0;
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export async function waitForPort(port: number, deadlineMs: number): Promise<void> {
  const { connect } = await import("node:net");
  const until = Date.now() + deadlineMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`redis-server did not listen on ${port} in time`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Starts a `redis-server` with no persistence, bound to 127.0.0.1 on a free port; `options` are
 * more of its command-line options (e.g. ["--maxmemory-policy", "allkeys-lru"]).
 */
export async function startRedisServer(options: readonly string[] = []): Promise<RedisServer> {
  // A port free a moment ago may be taken before redis-server binds it (other suites start
  // servers too): a server that never listened is tried again on another port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort(), options);
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/**
 * The process ID of the Redis that answers on `port` (INFO server's `process_id`), or undefined
 * when what answers there is no Redis or gives none.
 */
export async function listenerPid(port: number): Promise<number | undefined> {
  const { connect } = await import("node:net");
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    const done = (pid: number | undefined) => {
      socket.destroy();
      resolve(pid);
    };
    const timer = setTimeout(() => done(undefined), 1_000);
    socket.once("error", () => {
      clearTimeout(timer);
      done(undefined);
    });
    socket.on("data", (data) => {
      text += data.toString();
      const found = /process_id:(\d+)/.exec(text);
      if (found || text.startsWith("-") || text.length > 65_536) {
        clearTimeout(timer);
        done(found ? Number(found[1]) : undefined);
      }
    });
    socket.write("INFO server\r\n");
  });
}

/**
 * Starts a `redis-server` on `port`: started once the Redis answering there is the one it
 * spawned. Anything else listening on the port (it was free a moment ago, and other servers
 * start too) is refused, not taken for it.
 */
export async function startRedisServerOn(
  port: number,
  options: readonly string[] = [],
): Promise<RedisServer> {
  return startOn(port, options);
}

async function startOn(port: number, options: readonly string[]): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), "voicegraph-redis-"));
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      REDIS_SERVER,
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        dir,
        "--protected-mode",
        "yes",
        ...options,
      ],
      { stdio: "ignore" },
    );
    const spawned = child;
    await waitForPort(port, 5000);
    // What listens may be another process that took the port first: ours then exits.
    const until = Date.now() + 5_000;
    while ((await listenerPid(port)) !== spawned.pid) {
      if (spawned.exitCode !== null || spawned.signalCode !== null || Date.now() > until) {
        throw new Error(`another process listens on ${port}, not the redis-server started there`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const stop = async (signal: NodeJS.Signals) => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill(signal);
    await exited;
  };
  try {
    await start();
  } catch (error) {
    await stop("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    kill: () => stop("SIGKILL"),
    restart: start,
    async close() {
      await stop("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
