import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

/**
 * Runs the whole vitest suite many times on a busy machine and names every test that failed even
 * once: a test that passes only on an idle machine fails here first. Not part of CI: ten runs take
 * the better part of an hour on two cores.
 *
 *   npm run test:stress                       ten runs, two suites at once
 *   npm run test:stress -- --runs 4 --burners 1 --fleet
 */
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "10" },
    // Suites running side by side: each is the other's load.
    parallel: { type: "string", default: "2" },
    // Busy loops beside the suites, one core each.
    burners: { type: "string", default: "0" },
    fleet: { type: "boolean", default: false },
    // A run that takes longer than this is stopped and counted as failed.
    "run-timeout-s": { type: "string", default: "1800" },
  },
});

const runs = positive("runs", values.runs);
const parallel = positive("parallel", values.parallel);
const burners = Math.min(Number(values.burners), availableParallelism());
const runTimeoutMs = positive("run-timeout-s", values["run-timeout-s"]) * 1000;

function positive(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`--${name} must be a whole number of at least 1, not ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return value;
}

interface JsonReport {
  numTotalTests: number;
  numFailedTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

interface RunOutcome {
  index: number;
  seconds: number;
  tests: number;
  /** Test (or file, when a whole file failed to run) → its first failure line. */
  failures: Map<string, string>;
}

const dir = await mkdtemp(join(tmpdir(), "voicegraph-stress-"));
const burning = Array.from({ length: burners }, () =>
  spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }),
);

async function runOnce(index: number): Promise<RunOutcome> {
  const outputFile = join(dir, `run-${index}.json`);
  // Several --project flags are a union, so each project is named rather than excluded.
  const npmTest = ["unit", "gateway:*", "processes"];
  const projects = (values.fleet ? [...npmTest, "fleet"] : npmTest).flatMap((name) => [
    "--project",
    name,
  ]);
  const started = performance.now();
  const child = spawn(
    "vitest",
    ["run", ...projects, "--reporter=json", `--outputFile=${outputFile}`],
    { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, CI: "true" } },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), runTimeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(timer);
  const seconds = (performance.now() - started) / 1000;
  const failures = new Map<string, string>();
  let report: JsonReport | undefined;
  try {
    report = JSON.parse(await readFile(outputFile, "utf8")) as JsonReport;
  } catch {
    failures.set(`run ${index}`, `no report (exit ${code}): ${stderr.trim().split("\n").at(-1)}`);
    return { index, seconds, tests: 0, failures };
  }
  for (const file of report.testResults) {
    const failed = file.assertionResults.filter((test) => test.status === "failed");
    for (const test of failed) {
      const first = test.failureMessages[0]?.split("\n")[0] ?? "";
      failures.set(`${file.name.replace(`${process.cwd()}/`, "")} > ${test.fullName}`, first);
    }
    if (file.status === "failed" && failed.length === 0) {
      failures.set(file.name.replace(`${process.cwd()}/`, ""), file.message?.split("\n")[0] ?? "");
    }
  }
  return { index, seconds, tests: report.numTotalTests, failures };
}

const outcomes: RunOutcome[] = [];
let next = 1;
async function worker(): Promise<void> {
  while (next <= runs) {
    const index = next++;
    const outcome = await runOnce(index);
    outcomes.push(outcome);
    console.log(
      `run ${index}/${runs}: ${outcome.tests} tests, ${outcome.failures.size} failed, ${outcome.seconds.toFixed(0)} s`,
    );
  }
}

try {
  console.log(`${runs} runs, ${parallel} at once, ${burners} CPU burner(s) beside them`);
  await Promise.all(Array.from({ length: parallel }, worker));
} finally {
  for (const burner of burning) burner.kill("SIGKILL");
  await rm(dir, { recursive: true, force: true });
}

const byTest = new Map<string, { runs: number[]; first: string }>();
for (const outcome of outcomes) {
  for (const [name, message] of outcome.failures) {
    const seen = byTest.get(name) ?? { runs: [], first: message };
    seen.runs.push(outcome.index);
    byTest.set(name, seen);
  }
}
const failedRuns = outcomes.filter((outcome) => outcome.failures.size > 0).length;
console.log(`\n${runs} runs: ${runs - failedRuns} passed whole, ${failedRuns} with a failure`);
for (const [name, { runs: where, first }] of byTest) {
  console.log(
    `- failed in ${where.length} of ${runs} (runs ${where.sort((a, b) => a - b).join(", ")}): ${name}\n    ${first}`,
  );
}
process.exit(byTest.size === 0 ? 0 : 1);
