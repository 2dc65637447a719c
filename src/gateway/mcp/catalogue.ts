import { type FSWatcher, readdirSync, readFileSync, watch } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { GraphQLSchema } from "graphql";
import { type OperationTool, type Skipped, toolsOfDocument } from "./operation-tools.ts";

/** Where the operation tools come from: a folder of `.graphql` files, or a trusted-documents manifest. */
export type ToolSource = { folder: string } | { manifestFile: string } | { none: true };

export interface Catalogue {
  /** The tools now, sorted by name. */
  tools(): readonly OperationTool[];
  tool(name: string): OperationTool | undefined;
  /** Told after each reload that changed the tools. */
  onChange(listener: () => void): () => void;
  close(): void;
}

interface Logger {
  warn(...args: unknown[]): void;
}

/** Pause after a change on disk before reading: an editor writes a file in several steps. */
const SETTLE_MS = 50;

/** The documents of a source by where each came from; throws when the source cannot be read. */
function readSource(source: ToolSource): Array<[origin: string, text: string]> {
  if ("none" in source) return [];
  if ("folder" in source) {
    return readdirSync(source.folder)
      .filter((name) => name.endsWith(".graphql") || name.endsWith(".gql"))
      .sort()
      .map((name) => [name, readFileSync(join(source.folder, name), "utf8")]);
  }
  const manifest: unknown = JSON.parse(readFileSync(source.manifestFile, "utf8"));
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) {
    throw new Error("the manifest is not an object of { hash: document }");
  }
  return Object.entries(manifest).flatMap(([hash, text]) =>
    typeof text === "string" ? [[hash, text] as [string, string]] : [],
  );
}

function build(
  source: ToolSource,
  schema: GraphQLSchema,
  mutations: boolean,
  skipped: Skipped,
): Map<string, OperationTool> {
  const tools = new Map<string, OperationTool>();
  for (const [origin, text] of readSource(source)) {
    for (const tool of toolsOfDocument(text, schema, { mutations, origin }, skipped)) {
      if (tools.has(tool.name)) skipped.push(`${origin} ${tool.name}: a tool of that name exists`);
      else tools.set(tool.name, tool);
    }
  }
  return new Map([...tools.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * The operation tools, read at start-up (a source that cannot be read stops the start) and again
 * whenever the source changes on disk; a reload that fails keeps the last good tools.
 */
export function createCatalogue(
  source: ToolSource,
  schema: GraphQLSchema,
  options: { mutations: boolean; logger: Logger },
): Catalogue {
  const report = (skipped: Skipped) => {
    for (const line of skipped) options.logger.warn(`MCP: no tool from ${line}`);
  };
  const first: Skipped = [];
  let tools = build(source, schema, options.mutations, first);
  report(first);
  const listeners = new Set<() => void>();
  let timer: NodeJS.Timeout | undefined;
  const reload = () => {
    timer = undefined;
    const skipped: Skipped = [];
    try {
      const next = build(source, schema, options.mutations, skipped);
      report(skipped);
      if (JSON.stringify([...next.values()]) === JSON.stringify([...tools.values()])) return;
      tools = next;
    } catch (error) {
      options.logger.warn(`MCP: tools kept as they were: ${(error as Error).message}`);
      return;
    }
    for (const listener of listeners) listener();
  };
  // The manifest's folder, not the file: a file replaced by a rename is a new file.
  const path =
    "folder" in source
      ? source.folder
      : "manifestFile" in source
        ? dirname(source.manifestFile)
        : undefined;
  const only = "manifestFile" in source ? basename(source.manifestFile) : undefined;
  let watcher: FSWatcher | undefined;
  if (path !== undefined) {
    watcher = watch(path, (_event, name) => {
      if (only !== undefined && name !== only) return;
      clearTimeout(timer);
      timer = setTimeout(reload, SETTLE_MS);
    });
    // A watch that fails (the folder removed) leaves the last good tools in place.
    watcher.on("error", (error) => options.logger.warn(`MCP: watching ${path}: ${error.message}`));
    watcher.unref();
  }
  return {
    tools: () => [...tools.values()],
    tool: (name) => tools.get(name),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      clearTimeout(timer);
      watcher?.close();
      listeners.clear();
    },
  };
}
