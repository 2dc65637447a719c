import { existsSync, readFileSync, rmSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** What bench/memory-report.ts writes when signalled. */
export interface MemoryReport {
  usage: NodeJS.MemoryUsage;
  spaces: Record<string, { size: number; used: number }>;
  /** Since the report before (ms). */
  eventLoopDelay: { p99: number; max: number };
}

/** Asks a gateway started under bench/memory-report.ts for its report (SIGUSR2), and reads it. */
export async function askReport(pid: number, out: string): Promise<MemoryReport> {
  rmSync(out, { force: true });
  process.kill(pid, "SIGUSR2");
  for (let i = 0; i < 100 && !existsSync(out); i++) await sleep(50);
  await sleep(50);
  return JSON.parse(readFileSync(out, "utf8")) as MemoryReport;
}
