import { connect, createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { closedAfterEachTest } from "../support/closing.ts";
import { startRedisServer, startRedisServerOn } from "../support/redis-server.ts";

const closing = closedAfterEachTest();

function ping(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("error", reject);
    socket.once("data", (data) => {
      socket.destroy();
      resolve(data.toString());
    });
    socket.write("PING\r\n");
  });
}

describe("the fleet suite's own redis-server", () => {
  it("answers on its loopback port, dies for real when killed and comes back empty", async () => {
    const redis = closing(await startRedisServer());
    expect(redis.url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
    expect(await ping(redis.port)).toBe("+PONG\r\n");
    await redis.kill();
    await expect(ping(redis.port)).rejects.toThrow(/ECONNREFUSED/);
    await redis.restart();
    expect(await ping(redis.port)).toBe("+PONG\r\n");
  });

  it("is not taken as started while another process holds its port", async () => {
    // A port free a moment ago, taken by something else before redis-server binds it: that
    // listener accepts connections, but it is not the server the suite started.
    const other = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    closing({ close: () => new Promise((resolve) => other.close(() => resolve(undefined))) });
    const { port } = other.address() as { port: number };
    await expect(startRedisServerOn(port)).rejects.toThrow(/another process listens/);
  });
});
