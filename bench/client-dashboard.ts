import { Agent, request } from "undici";
import { DEMO_KEYS, SEED_IDS } from "../src/sandbox/seed-data.ts";

/** The dashboard assembled by a client calling REST itself, `times` times in a row (bounded). */
export async function clientDashboard(
  base: string,
  mode: "sequential" | "parallel",
  times: number,
) {
  const dispatcher = new Agent({ connections: 64 });
  const get = async (path: string): Promise<Record<string, unknown>> => {
    const answer = await request(base + path, {
      dispatcher,
      headers: { authorization: `Bearer ${DEMO_KEYS.acme}` },
    });
    return (await answer.body.json()) as Record<string, unknown>;
  };
  const all = <T>(jobs: (() => Promise<T>)[]) =>
    mode === "parallel"
      ? Promise.all(jobs.map((job) => job()))
      : jobs.reduce<Promise<T[]>>(
          async (done, job) => [...(await done), await job()],
          Promise.resolve([]),
        );
  const walls: number[] = [];
  let errors = 0;
  try {
    for (let i = 0; i < times; i++) {
      const started = performance.now();
      const [, , , list] = await all([
        () => get("/v1/organization"),
        () => get(`/v1/agents/${SEED_IDS.acmeAgent}`),
        () => get(`/v1/agents/${SEED_IDS.acmeAgent}/stats`),
        () => get("/v1/conversations?limit=50"),
        () => get("/v1/campaigns?limit=10"),
      ]);
      const items = (list as { items?: { agentId?: string; contactId?: string }[] })?.items ?? [];
      if (items.length === 0) errors++;
      // Naive: one call per conversation for its agent and its contact's stats, no de-duplication.
      await all(
        items.flatMap((c) => [
          () => get(`/v1/agents/${c.agentId}`),
          () => get(`/v1/contacts/${c.contactId}/stats`),
        ]),
      );
      walls.push(performance.now() - started);
    }
  } finally {
    await dispatcher.close();
  }
  walls.sort((a, b) => a - b);
  const mean = walls.reduce((a, b) => a + b, 0) / walls.length;
  return {
    rps: Math.round((1000 / mean) * 10) / 10,
    p50: Math.round(walls[Math.floor(walls.length / 2)] as number),
    p99: Math.round(walls[walls.length - 1] as number),
    requests: times,
    errors,
  };
}
