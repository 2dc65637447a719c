import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  MAX_CURSOR_LENGTH,
  MAX_POSITION,
  MAX_UPSTREAM_CURSOR_LENGTH,
} from "../../src/connections/cursor.ts";
import { DEFAULT_MAX_SIZE } from "../../src/connections/types.ts";
import { LEASE_MARGIN_MS } from "../../src/fleet/poller-store.ts";
import { FLEET_REDIS_DEFAULTS } from "../../src/fleet/redis-defaults.ts";
import { SHARED_PER_LIST } from "../../src/gateway/admission/estimate-upstream-calls.ts";
import { AST_BYTES_PER_CHARACTER } from "../../src/gateway/admission/text-caches.ts";
import { MAX_KEY_BYTES } from "../../src/gateway/admission/use-key-bound.ts";
import { MAX_BRACKET_DEPTH } from "../../src/gateway/admission/use-well-formed-input.ts";
import {
  FAST_PATH_MAX_KEPT_TEXT,
  FAST_PATH_TEXT_BYTES,
} from "../../src/gateway/lane/fast-path-eligibility.ts";
import { MAX_PAUSE_MS } from "../../src/gateway/live/live-pace.ts";
import { MAX_COMPILED_FIELDS } from "../../src/gateway/preparation/use-compiled-execution.ts";
import { READINESS_CACHE_MS } from "../../src/gateway/preparation/use-readiness.ts";
import { gatewayEnv } from "../../src/gateway/settings/config.ts";
import { GATEWAY_DEFAULTS } from "../../src/gateway/settings/defaults.ts";
import { GOING_AWAY } from "../../src/gateway/transport/server.ts";
import { IDLE_CLOSE } from "../../src/gateway/transport/socket-bounds.ts";
import { DIALECTS } from "../../src/sandbox/dialects.ts";
import { MAX_BODY_BYTES } from "../../src/sandbox/request-body.ts";
import { seedStore } from "../../src/sandbox/seed.ts";
import { SEED_COUNTS } from "../../src/sandbox/seed-data.ts";
import { UPSTREAM_DEFAULTS } from "../../src/upstream/client.ts";
import { MAX_ID_LENGTH } from "../../src/upstream/ids.ts";
import { KEY_MEMORY_CAPACITY } from "../../src/upstream/key-memory.ts";
import { KEY_RUN, SHORTEST_KEY } from "../../src/upstream/key-redaction.ts";
import { listOf, OPERATIONS } from "../../src/upstream/operations.ts";
import {
  DEFAULT_RETRY_AFTER_S,
  MAX_LOCAL_BLOCK_S,
  MAX_RETRY_AFTER_S,
} from "../../src/upstream/rate-limit.ts";
import { UNPROVEN_KEY_CALLS } from "../../src/upstream/rest-api.ts";

/**
 * Figures the docs state in prose, each written here from the constant that decides it: when
 * the constant changes, the sentence is no longer found and the test names it. (Settings'
 * defaults and error statuses are read out of the text by doc-claims.test.ts.)
 */

const ROOT = resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8").replace(/\s+/g, " ");

const KiB = 1024;
const MiB = 1024 * 1024;
const pool = UPSTREAM_DEFAULTS.connections;
const kept = Math.floor(pool / 4);
const cacheableOperations = Object.values(OPERATIONS)
  .filter((row) => "cacheable" in row && typeof row.operation === "number")
  .map((row) => row.operation);

/** A number with its thousands set apart by spaces, as docs/upstream.md writes them. */
function spaced(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
}

/** A duration in seconds as the docs write it. */
function inWords(seconds: number): string {
  return seconds === 3600 ? "an hour" : seconds === 86_400 ? "a day" : `${seconds} s`;
}

const acme = [...seedStore(0, 60_000).values()].find(
  (org) => org.organization.name === "Acme Health",
);
const withVoices = [...(acme?.agents.values() ?? [])].filter(
  (agent) => (agent.voiceConfigs ?? []).length > 0,
).length;
const env = gatewayEnv.parse({});

/** [page, the sentence as the code makes it true] */
const CLAIMS: Array<[string, string]> = [
  // README.md
  ["README.md", `gateway on http://${env.HOST}:${env.PORT}/graphql`],
  [
    "README.md",
    `Acme is seeded with ${SEED_COUNTS.acme.agents} agents (${withVoices} with voice configs), ${SEED_COUNTS.acme.conversations} conversations`,
  ],
  [
    "README.md",
    `${SEED_COUNTS.acme.contacts} contacts, ${SEED_COUNTS.acme.campaigns} campaigns (some with failed rows)`,
  ],
  // docs/errors.md
  ["docs/errors.md", `or over ${MAX_ID_LENGTH} characters`],
  ["docs/errors.md", `nested deeper than ${GATEWAY_DEFAULTS.maxValueDepth} objects/lists`],
  [
    "docs/errors.md",
    `(else \`Retry-After\`, else ${DEFAULT_RETRY_AFTER_S}; at most ${MAX_RETRY_AFTER_S})`,
  ],
  // docs/connections.md
  ["docs/connections.md", `(page/pageSize upstream, default ${listOf("listAgents").defaultSize})`],
  ["docs/connections.md", `(limit/offset, default ${listOf("listConversations").defaultSize})`],
  ["docs/connections.md", `(cursor upstream, default ${listOf("listCampaigns").defaultSize})`],
  ["docs/connections.md", `outside 0–${DEFAULT_MAX_SIZE} is \`BAD_USER_INPUT\``],
  [
    "docs/connections.md",
    `positions are integers 0..10^${Math.log10(MAX_POSITION)}, IDs ≤ ${MAX_ID_LENGTH} characters, upstream cursors ≤ ${MAX_UPSTREAM_CURSOR_LENGTH}, the whole cursor ≤ ${MAX_CURSOR_LENGTH}`,
  ],
  ["docs/connections.md", `page bound (${DEFAULT_MAX_SIZE})`],
  // docs/limits.md
  ["docs/limits.md", `| ${MAX_BRACKET_DEPTH}, checked before the parser`],
  ["docs/limits.md", `one upstream check answers every hit for ${READINESS_CACHE_MS / 1000} s`],
  ["docs/limits.md", `at most ${inWords(MAX_LOCAL_BLOCK_S)} (\`MAX_LOCAL_BLOCK_S\``],
  ["docs/limits.md", `stays the upstream's, at most ${inWords(MAX_RETRY_AFTER_S)}`],
  ["docs/limits.md", `${AST_BYTES_PER_CHARACTER} bytes per character of text`],
  [
    "docs/limits.md",
    `at most ${FAST_PATH_TEXT_BYTES / MiB} MiB of text and no text over ${FAST_PATH_MAX_KEPT_TEXT / KiB} KiB`,
  ],
  ["docs/limits.md", `in entries (${GATEWAY_DEFAULTS.apqCapacity})`],
  ["docs/limits.md", `present, at most ${MAX_KEY_BYTES / KiB} KiB`],
  ["docs/limits.md", `the client's ${UPSTREAM_DEFAULTS.maxResponseBytes / MiB} MiB per call`],
  [
    "docs/limits.md",
    `(${(GATEWAY_DEFAULTS.sseReservationsTotal * GATEWAY_DEFAULTS.sseMaxQueuedBytes) / MiB} MiB at the defaults`,
  ],
  ["docs/limits.md", `a quarter of \`UPSTREAM_CONNECTIONS\` ${pool}`],
  ["docs/limits.md", `| (kept for idle keys) | \`${kept}\``],
  ["docs/limits.md", `(${pool - kept} of ${pool} by default)`],
  ["docs/limits.md", `the kept ${kept} go only to a key's first call`],
  ["docs/limits.md", `hang take at most ${pool - kept} connections`],
  // docs/security.md
  [
    "docs/security.md",
    `A key shorter than ${KEY_RUN} characters is redacted whole; one shorter than ${SHORTEST_KEY} not at all.`,
  ],
  ["docs/security.md", `in LRU maps of at most ${KEY_MEMORY_CAPACITY.toLocaleString("en")} keys`],
  ["docs/security.md", `\`Retry-After\`, at most ${inWords(MAX_RETRY_AFTER_S)})`],
  ["docs/security.md", `starts at most ${UNPROVEN_KEY_CALLS} calls per operation`],
  ["docs/security.md", `makes at most ${UNPROVEN_KEY_CALLS} calls, not 90`],
  // docs/live-queries.md
  ["docs/live-queries.md", `until its reset (at most ${MAX_PAUSE_MS / 1000} s)`],
  // docs/http.md
  ["docs/http.md", `closes ${IDLE_CLOSE.code}, and a drain closes ${GOING_AWAY.code}`],
  // docs/operations.md
  ["docs/operations.md", `an operation of more than ${MAX_COMPILED_FIELDS} fields`],
  [
    "docs/operations.md",
    `at most ${GATEWAY_DEFAULTS.compileMsPerSecond} ms a second on average (a tenth of a core)`,
  ],
  ["docs/operations.md", `a value nested deeper than ${GATEWAY_DEFAULTS.maxValueDepth} `],
  ["docs/operations.md", `an ID with the wrong prefix or over ${MAX_ID_LENGTH} characters`],
  ["docs/operations.md", `\`Authorization\` longer than ${MAX_KEY_BYTES} bytes`],
  // docs/fleet.md
  ["docs/fleet.md", `under \`REDIS_PREFIX\` (default \`${FLEET_REDIS_DEFAULTS.prefix}\`)`],
  ["docs/fleet.md", `(two poll intervals and ${LEASE_MARGIN_MS} ms, renewed at every tick)`],
  ["docs/fleet.md", `the command timeout (${FLEET_REDIS_DEFAULTS.commandTimeoutMs} ms)`],
  // docs/http.md
  ["docs/http.md", `one check serves every hit for ${READINESS_CACHE_MS / 1000} s`],
  // docs/upstream.md
  ["docs/upstream.md", `counts at most ${SHARED_PER_LIST} loads per list`],
  ["docs/upstream.md", `\`PAYLOAD_TOO_LARGE\` 413 (over ${MAX_BODY_BYTES / MiB} MiB)`],
  ["docs/upstream.md", `bodies up to ${MAX_BODY_BYTES / MiB} MiB`],
  [
    "docs/upstream.md",
    `| ${spaced(DIALECTS.standard.rateLimit)} per ${spaced(DIALECTS.standard.rateWindowSeconds)} s | ${spaced(DIALECTS.alternate.rateLimit)} per ${spaced(DIALECTS.alternate.rateWindowSeconds)} s |`,
  ],
  // docs/upstream-sharing.md
  [
    "docs/upstream-sharing.md",
    `operations ${cacheableOperations.slice(0, -1).join(", ")} and ${cacheableOperations.at(-1)} and the assumed campaign read`,
  ],
];

/**
 * Figures a source states as a literal, not a constant: [page, its sentence, source file, the
 * literal]. Either side changing alone fails.
 */
const LITERALS: Array<[string, string, string, string]> = [
  ["docs/security.md", "a one-hour token", "scripts/demo-token.ts", 'setExpirationTime("1h")'],
  [
    "docs/security.md",
    "`Cache-Control: public, max-age=31536000, immutable`",
    "src/gateway/pages/graphiql-page.ts",
    '"public, max-age=31536000, immutable"',
  ],
  [
    "docs/http.md",
    "(256 random bits,",
    "src/gateway/sse/sse-reservations.ts",
    'randomBytes(32).toString("base64url")',
  ],
  [
    "docs/limits.md",
    "The token is 256 random bits from node:crypto (43 base64url characters)",
    "src/gateway/sse/sse-reservations.ts",
    'randomBytes(32).toString("base64url")',
  ],
];

describe("figures the docs state, each from its constant", () => {
  it.each(LITERALS)("%s says %s, as %s has it", (file, sentence, source, literal) => {
    expect(read(file)).toContain(sentence);
    expect(readFileSync(join(ROOT, source), "utf8")).toContain(literal);
  });

  it.each(CLAIMS)("%s says: %s", (file, sentence) => {
    expect(read(file)).toContain(sentence);
  });

  it("hold the pool the fairness section counts to the environment's default", () => {
    expect(String(gatewayEnv.shape.UPSTREAM_CONNECTIONS.parse(undefined))).toBe(String(pool));
    expect(Math.min(GATEWAY_DEFAULTS.upstreamConnectionsPerKey, kept)).toBe(
      GATEWAY_DEFAULTS.upstreamConnectionsPerKey,
    );
  });
});
