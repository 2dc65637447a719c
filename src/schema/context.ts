import type { CursorKey } from "../connections/cursor.ts";
import type { ConversationStatusDto } from "../upstream/dto.ts";
import type { RestApi } from "../upstream/rest-api.ts";

/** One poll's answer for a followed conversation, or the failure that ends the stream. */
export type StatusEvent = ConversationStatusDto | Error;

/** Live status views, shared by every subscriber of one (API key, conversation). */
export interface ConversationStatusFeed {
  subscribe(authorization: string, conversationId: string): AsyncIterableIterator<StatusEvent>;
}

/**
 * What a resolver may use. The gateway builds it per operation (gateway/execution/context.ts) and may add
 * to it; the schema knows only this, so nothing here reaches back into the gateway.
 */
export interface SchemaContext {
  /** The caller's `Authorization` header, forwarded verbatim; undefined when absent. */
  readonly authorization: string | undefined;
  /** The REST API bound to this caller, this request's abort signal and its usage. */
  readonly api: RestApi;
  /** Process-wide pollers behind `Subscription.conversationStatus`. */
  readonly conversationStatusHub: ConversationStatusFeed;
  /** Signs and checks connection cursors (`CURSOR_SECRET`). */
  readonly cursorKey: CursorKey;
}
