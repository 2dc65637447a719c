import { spawnSync } from "node:child_process";

// The fleet suite needs a real Redis: say in one line how to get one, rather than fail 30 times.
if (spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status !== 0) {
  console.error(
    "npm run test:fleet needs redis-server: install it with `apt-get install redis-server` (Debian/Ubuntu) or `brew install redis` (macOS)",
  );
  process.exit(1);
}
const run = spawnSync("vitest", ["run", "--project", "fleet", ...process.argv.slice(2)], {
  stdio: "inherit",
});
process.exit(run.status ?? 1);
