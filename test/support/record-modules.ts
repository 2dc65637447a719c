import { registerHooks } from "node:module";

/**
 * Preloaded into a child process (`NODE_OPTIONS=--import=./test/support/record-modules.ts`): it
 * records the URL of every module the process loads, ESM and CommonJS alike, and on SIGUSR2
 * prints them on one stdout line, `loaded modules: <JSON array>`.
 */
const loaded = new Set<string>();
registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url);
    return nextLoad(url, context);
  },
});
process.on("SIGUSR2", () => {
  process.stdout.write(`loaded modules: ${JSON.stringify([...loaded])}\n`);
});
