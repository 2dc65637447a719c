/**
 * How the fleet names its keys and channels: `<prefix><kind>:{<tag>}:<rest…>`.
 *
 * The part in braces is the key's hash tag: a Redis Cluster places a key by it alone, so every
 * key named with one tag lands in one slot, and a script or MULTI over them is never refused
 * with CROSSSLOT. Pick the tag by what must be atomic, never one tag for everything (that puts
 * the whole fleet on one master):
 *
 * - a watched call (a poller's lease, its counter, epoch, latest update and channel): the watch;
 * - a key's own state (its read-cache entries, key version and life): its key hash;
 * - a resource's version and life: the resource;
 * - one key of its own (APQ, a session's count, a logout, the write version): whatever names it.
 *
 * A kind alone (`key("limits")`) has no tag: a single key needs none. A REDIS_PREFIX that holds
 * a tag of its own (`{vg}:`) wins over these, and puts every key in its one slot.
 */
export type FleetKeyNamer = (kind: string, tag?: string, ...rest: string[]) => string;

export function fleetKeyNamer(prefix: string): FleetKeyNamer {
  return (kind, tag, ...rest) => {
    if (tag === undefined) return `${prefix}${kind}`;
    const tail = rest.length > 0 ? `:${rest.join(":")}` : "";
    return `${prefix}${kind}:{${tag}}${tail}`;
  };
}

/**
 * Whether a REDIS_PREFIX keeps the fleet's tags working: no braces, or one non-empty `{…}`
 * (a cluster then places every key by it). A lone brace would pair with a brace of the kind's
 * tag and mix the kind into it, splitting a watched call over several slots.
 */
export function prefixKeepsTags(prefix: string): boolean {
  const braces = prefix.replace(/[^{}]/g, "");
  if (braces === "") return true;
  return braces === "{}" && /\{[^{}]+\}/.test(prefix);
}
