import {
  type ASTNode,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLError,
  Kind,
  visit,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { badUserInput } from "../../errors.ts";
import { requestLevel } from "../shared/http-status.ts";
import { refuseBeforeRunning } from "./refuse-before-running.ts";

export interface WellFormedInputOptions {
  /** Deepest nesting of objects and lists in a variable or an inline value (GATEWAY_DEFAULTS.maxValueDepth). */
  maxValueDepth: number;
}

/**
 * Refuses, before anything runs or goes upstream, input the gateway can judge alone: strings that
 * are not well-formed Unicode (a lone surrogate cannot be sent in a URL or a JSON body) and values
 * nested absurdly deep (they would only exhaust the stack of whatever walks them). Both are the
 * client's to fix: BAD_USER_INPUT, HTTP 400, naming where.
 */
export function useWellFormedInput(options: WellFormedInputOptions): Plugin {
  const maxDepth = options.maxValueDepth;
  // yoga's parse cache hands back the same document object for the same text: its inline values
  // are judged once, not walked again on every request.
  const inlineVerdicts = new WeakMap<DocumentNode, Problem | null>();

  function inlineProblem(document: DocumentNode): Problem | undefined {
    let verdict = inlineVerdicts.get(document);
    if (verdict === undefined) {
      verdict = inlineValuesProblem(document, maxDepth) ?? null;
      inlineVerdicts.set(document, verdict);
    }
    return verdict ?? undefined;
  }

  function judge(args: ExecutionArgs) {
    const problem =
      variablesProblem(args.variableValues ?? {}, maxDepth) ?? inlineProblem(args.document);
    return problem && { errors: [requestLevel(badUserInput(problem.message, problem.extensions))] };
  }

  return {
    ...refuseBeforeRunning(judge),
    // Before the parser, whose recursion a document nested some 1,600 levels deep overflows.
    onParams({ params }) {
      const refusal = tooDeepToParse(params.query);
      if (refusal) throw refusal;
    },
  };
}

/** BAD_USER_INPUT for a document nested too deep to parse safely (HTTP and graphql-ws alike). */
export function tooDeepToParse(query: unknown): GraphQLError | undefined {
  if (typeof query !== "string" || !nestsDeeperThan(query, MAX_BRACKET_DEPTH)) return undefined;
  return requestLevel(
    badUserInput(
      `The document nests brackets ({, [, () more than ${MAX_BRACKET_DEPTH} levels deep.`,
    ),
  );
}

/**
 * Deepest bracket nesting a document may have before it is parsed: well above any real one
 * (MAX_DEPTH 12 selections, values 32 deep, arguments) and far below the parser's stack.
 */
export const MAX_BRACKET_DEPTH = 128;

/** Whether {, [ and ( nest deeper than `max` in a GraphQL text (strings and comments skipped). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "#") {
      while (i < text.length && text[i] !== "\n" && text[i] !== "\r") i++;
    } else if (char === '"' && text.startsWith('"""', i)) {
      // A block string ends at the first """ not escaped as \""".
      let end = text.indexOf('"""', i + 3);
      while (end !== -1 && text[end - 1] === "\\") end = text.indexOf('"""', end + 3);
      i = end === -1 ? text.length : end + 2;
    } else if (char === '"') {
      for (i++; i < text.length && text[i] !== '"' && text[i] !== "\n"; i++) {
        if (text[i] === "\\") i++;
      }
    } else if (char === "{" || char === "[" || char === "(") {
      depth += 1;
      if (depth > max) return true;
    } else if (char === "}" || char === "]" || char === ")") {
      depth = Math.max(0, depth - 1);
    }
  }
  return false;
}

interface Problem {
  message: string;
  extensions: { argument: string };
}

/** Walks every variable without recursion: its depth and its strings, each checked once. */
function variablesProblem(
  variables: Record<string, unknown>,
  maxDepth: number,
): Problem | undefined {
  // The common case, variables of scalars only, is judged without building the walk's stack, in
  // the walk's order (the last variable first), so the same variable is named.
  const names = Object.keys(variables);
  if (names.every((name) => typeof variables[name] !== "object" || variables[name] === null)) {
    for (let i = names.length - 1; i >= 0; i--) {
      const name = names[i] as string;
      const value = variables[name];
      if (typeof value === "string" && !value.isWellFormed()) return illFormed(`$${name}`);
    }
    return undefined;
  }
  const stack: Array<{ value: unknown; path: string; depth: number }> = Object.entries(
    variables,
  ).map(([name, value]) => ({ value, path: `$${name}`, depth: 0 }));
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop() as (typeof stack)[number];
    if (typeof value === "string") {
      if (!value.isWellFormed()) return illFormed(path);
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (depth >= maxDepth) return tooDeep(path, maxDepth);
    for (const [key, member] of Object.entries(value)) {
      if (!key.isWellFormed()) return illFormed(path);
      stack.push({ value: member, path: `${path}.${key}`, depth: depth + 1 });
    }
  }
  return undefined;
}

/**
 * Inline object and list values nested too deep. (Strings in the document are already checked by
 * graphql-js's lexer, which refuses lone surrogates.)
 */
function inlineValuesProblem(document: DocumentNode, maxDepth: number): Problem | undefined {
  let depth = 0;
  let problem: Problem | undefined;
  visit(document, {
    [Kind.OBJECT]: {
      enter: enterValue,
      leave: () => {
        depth -= 1;
      },
    },
    [Kind.LIST]: {
      enter: enterValue,
      leave: () => {
        depth -= 1;
      },
    },
  });
  return problem;

  function enterValue(
    _node: ASTNode,
    _key: unknown,
    parent: ASTNode | ReadonlyArray<ASTNode> | undefined,
    path: ReadonlyArray<string | number>,
    ancestors: ReadonlyArray<ASTNode | ReadonlyArray<ASTNode>>,
  ) {
    depth += 1;
    if (depth > maxDepth) {
      // graphql-js leaves the parent out of `ancestors`.
      const chain = parent === undefined ? ancestors : [...ancestors, parent];
      problem ??= tooDeep(inlinePath(path, chain), maxDepth);
      return false;
    }
    return undefined;
  }
}

/**
 * Where an inline value stands, named as the ID rules name it: its argument (or variable's
 * default) and the path into it, `input.metadata.a[0]`. Each of `chain` leads to the next by
 * `path[i]`, the last one to the value itself.
 */
function inlinePath(
  path: ReadonlyArray<string | number>,
  chain: ReadonlyArray<ASTNode | ReadonlyArray<ASTNode>>,
): string {
  let where = "an inline value";
  chain.forEach((ancestor, i) => {
    if ("kind" in ancestor) {
      if (ancestor.kind === Kind.ARGUMENT) where = ancestor.name.value;
      else if (ancestor.kind === Kind.VARIABLE_DEFINITION)
        where = `$${ancestor.variable.name.value}`;
      else if (ancestor.kind === Kind.OBJECT_FIELD) where += `.${ancestor.name.value}`;
      return;
    }
    const owner = chain[i - 1];
    if (owner && "kind" in owner && owner.kind === Kind.LIST) where += `[${path[i]}]`;
  });
  return where;
}

/** A path as quoted back: a long one is cut, so an error never echoes a large input. */
function quoted(where: string): string {
  return where.length > 120 ? `${where.slice(0, 120)}…` : where;
}

function illFormed(where: string): Problem {
  return {
    message: `${quoted(where)} is not well-formed Unicode (it holds a lone surrogate).`,
    extensions: { argument: quoted(where) },
  };
}

function tooDeep(where: string, maxDepth: number): Problem {
  return {
    message: `${quoted(where)} nests objects and lists deeper than ${maxDepth} levels.`,
    extensions: { argument: quoted(where) },
  };
}
