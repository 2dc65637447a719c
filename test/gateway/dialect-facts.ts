import { dialect } from "../../src/sandbox/dialects.ts";
import { testDialect } from "./harness.ts";

/**
 * What this run's sandbox dialect answers where the standard one answers otherwise, read from the
 * dialect itself (src/sandbox/dialects.ts), so a test states what the gateway must pass on
 * without restating either dialect's choice.
 */
const current = dialect(testDialect());

/** The upstream error this dialect answers where the standard one answers `code` with `status`. */
export function upstreamError(code: string, status: number) {
  const answer = current.error({ status, code, message: "", requestId: "", details: undefined });
  const body = answer.body as { error: { code: string } };
  return { status: answer.status, code: body.error.code };
}

/** The status this dialect answers `route` with where the standard one answers `status`. */
export function upstreamStatus(route: string, status: number): number {
  return current.answer({ route, params: {}, result: { status, body: {} } }).status;
}

/** The body this dialect answers `route` with where the standard one answers `body` (`{}`: none). */
export function upstreamBody(route: string, status: number, body: Record<string, unknown>) {
  return current.answer({ route, params: {}, result: { status, body } }).body ?? {};
}
