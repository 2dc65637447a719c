import { spawnSync } from "node:child_process";

// The server binary the suite runs (test/support/redis-server.ts): redis-server, or e.g.
// FLEET_REDIS_SERVER=valkey-server.
const server = process.env.FLEET_REDIS_SERVER || "redis-server";
// The fleet suite needs a real Redis: say in one line how to get one, rather than fail 30 times.
if (spawnSync(server, ["--version"], { stdio: "ignore" }).status !== 0) {
  console.error(
    server === "redis-server"
      ? "npm run test:fleet needs redis-server: install it with `apt-get install redis-server` (Debian/Ubuntu) or `brew install redis` (macOS)"
      : `npm run test:fleet needs ${server} (FLEET_REDIS_SERVER): install it, or unset FLEET_REDIS_SERVER for redis-server`,
  );
  process.exit(1);
}
// Every fleet promise on each store its users run: one server, then a three-master Redis
// Cluster the suite starts itself (FLEET_STORE=server or cluster runs one of them).
const stores = process.env.FLEET_STORE ? [process.env.FLEET_STORE] : ["server", "cluster"];
for (const store of stores) {
  console.log(
    `\n# the fleet suite on ${store === "cluster" ? "a Redis Cluster" : "one server"} (${server})`,
  );
  const project = store === "cluster" ? "fleet-cluster" : "fleet";
  const run = spawnSync("vitest", ["run", "--project", project, ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, FLEET_STORE: store },
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
