import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface RunningScript {
  child: ChildProcess;
  /** What the script has printed so far. */
  output(): { stdout: string; stderr: string };
  /** stdout once it contains `text` (a string, or a pattern it matches), or as it is after 45 s (a process starting on a busy machine). */
  stdoutWith(text: string | RegExp): Promise<string>;
}

/**
 * For tests that run one of the repository's scripts (`npm start`, `npm run sandbox`) as a child
 * process: returns the function that starts `node <script>` from the repository root with PATH,
 * `defaults` and its `env` as the only variables, and collects what it prints. Whatever a test
 * started and is still running is stopped (SIGTERM) once that test ends.
 */
export function scriptPerTest(
  script: string,
  defaults: Record<string, string> = {},
): (env?: Record<string, string>) => RunningScript {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill("SIGTERM");
  });
  return (env = {}) => {
    const child = spawn(process.execPath, [script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", ...defaults, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    const has = (text: string | RegExp) =>
      typeof text === "string" ? stdout.includes(text) : text.test(stdout);
    return {
      child,
      output: () => ({ stdout, stderr }),
      async stdoutWith(text) {
        for (let waited = 0; waited < 45_000 && !has(text); waited += 50) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return stdout;
      },
    };
  };
}
