// Apart from redis.ts, so that reading the configuration does not load ioredis: a gateway
// without REDIS_URL never does.
export const FLEET_REDIS_DEFAULTS = { prefix: "voicegraph:", commandTimeoutMs: 250 } as const;
