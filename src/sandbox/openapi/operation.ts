/**
 * One authenticated operation of the document: bearer security, the rate-limit headers on its
 * success, the errors every operation may answer, and the mark of an assumed operation.
 */
import { type ErrorStatus, errorResponses, type Schema } from "./helpers.ts";

export const BEARER_SCHEME = "bearerAuth";

const ASSUMED =
  "Assumed operation: the seed mentions it but does not show it; the sandbox follows the " +
  "seed's conventions.";

type Operation = {
  tag: string;
  summary: string;
  description?: string;
  parameters?: Schema[];
  requestBody?: Schema;
  /** Success responses by status. */
  success: Record<string, Schema>;
  /** Error statuses besides those in ALWAYS. */
  errors?: ErrorStatus[];
  assumed?: boolean;
};

/** Any authenticated operation may answer these (400: e.g. an unknown query parameter). */
const ALWAYS: ErrorStatus[] = [400, 401, 429, 500];

/** An authenticated operation: bearer security, rate-limit headers, the common errors. */
export const op = (operationId: string, o: Operation): Schema => {
  const description = o.assumed
    ? [ASSUMED, o.description].filter(Boolean).join(" ")
    : o.description;
  return {
    operationId,
    tags: [o.tag],
    summary: o.summary,
    ...(description ? { description } : {}),
    ...(o.assumed ? { "x-assumed": true } : {}),
    security: [{ [BEARER_SCHEME]: [] }],
    ...(o.parameters ? { parameters: o.parameters } : {}),
    ...(o.requestBody ? { requestBody: o.requestBody } : {}),
    responses: {
      ...o.success,
      ...errorResponses([...(o.errors ?? []), ...ALWAYS].sort((a, b) => a - b)),
      default: { $ref: "#/components/responses/UnexpectedError" },
    },
  };
};

/** Writes may also answer 403 (a read-only key). */
export const WRITE: ErrorStatus[] = [403];
