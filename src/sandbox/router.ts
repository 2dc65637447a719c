import type { RouteDefinition } from "./routes.ts";

export type RouteMatch =
  | { kind: "found"; route: RouteDefinition; params: Record<string, string> }
  | { kind: "method-not-allowed"; allow: string[] }
  | { kind: "not-found" };

interface CompiledRoute {
  route: RouteDefinition;
  /** Literal segments, or `{name}` for a parameter. */
  segments: string[];
}

/** Matches a pathname against `/v1/agents/{agentId}`-style patterns, segment by segment. */
export class Router {
  readonly #routes: CompiledRoute[];

  constructor(routes: readonly RouteDefinition[]) {
    this.#routes = routes.map((route) => ({ route, segments: route.path.split("/") }));
  }

  match(method: string, pathname: string): RouteMatch {
    const segments = pathname.split("/");
    const allow: string[] = [];
    for (const compiled of this.#routes) {
      const params = matchSegments(compiled.segments, segments);
      if (params === undefined) continue;
      if (compiled.route.method === method) return { kind: "found", route: compiled.route, params };
      allow.push(compiled.route.method);
    }
    return allow.length > 0 ? { kind: "method-not-allowed", allow } : { kind: "not-found" };
  }
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, expected] of pattern.entries()) {
    const segment = actual[index] ?? "";
    if (expected.startsWith("{") && expected.endsWith("}")) {
      if (segment === "") return undefined;
      try {
        params[expected.slice(1, -1)] = decodeURIComponent(segment);
      } catch {
        return undefined; // malformed percent-encoding cannot name any resource
      }
    } else if (segment !== expected) {
      return undefined;
    }
  }
  return params;
}
