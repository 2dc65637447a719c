import type { ConversationStatusFeed, StatusEvent } from "../../schema/context.ts";
import type { UpstreamReading } from "../../upstream/conversation-reading.ts";
import { DEFAULT_READING, readConversation } from "../../upstream/conversation-reading.ts";
import type { ConversationStatusDto } from "../../upstream/dto.ts";
import type { KeyHasher } from "../../upstream/key-memory.ts";
import { OPERATIONS } from "../../upstream/operations.ts";
import { pathOf } from "../../upstream/rest-api.ts";
import { LatestResults } from "./latest-results.ts";
import type { LiveHub } from "./live-hub.ts";
import { type ReadTemplate, replay, requestKeyOf } from "./live-reads.ts";
import { shuttingDown } from "./stream-lifetime.ts";

export interface ConversationStatusHubOptions {
  /** The one poller mechanism of live data: operation 8 is a live read like any other. */
  hub: LiveHub;
  /** The gateway's naming of keys (createKeyHasher). */
  keyHash: KeyHasher;
  /** How the upstream's answers read where the seed is silent (the duration's unit). */
  reading?: UpstreamReading;
}

/**
 * `Subscription.conversationStatus`: operation 8 followed through the live hub, so it shares
 * one poller per (API key, conversation) with every other stream of the fleet. Subscribers see
 * only changes; the stream ends once the call has ended, or with the error that ended its read.
 */
export class ConversationStatusHub implements ConversationStatusFeed {
  readonly #options: ConversationStatusHubOptions;

  constructor(options: ConversationStatusHubOptions) {
    this.#options = options;
  }

  /** Calls followed here (operation 8's pollers of the hub, whoever reads them), for metrics. */
  get pollerCount(): number {
    return this.#options.hub.pollersOf(OPERATIONS.getConversationStatus).total;
  }

  /** Of those, the ones this instance reads the upstream for. */
  get ownedPollerCount(): number {
    return this.#options.hub.pollersOf(OPERATIONS.getConversationStatus).owned;
  }

  subscribe(authorization: string, conversationId: string): AsyncIterableIterator<StatusEvent> {
    const { hub } = this.#options;
    const id = encodeURIComponent(conversationId);
    const row = OPERATIONS.getConversationStatus;
    const template: ReadTemplate = { path: pathOf(row, [id]), operation: { row, ids: [id] } };
    const requestKey = requestKeyOf(template);
    const hash = this.#options.keyHash(authorization);
    const reading = this.#options.reading ?? DEFAULT_READING;
    // Only the newest state matters: a slow reader gets the latest when it reads again.
    const stream = new LatestResults<StatusEvent>();
    if (hub.shuttingDown) {
      stream.push(shuttingDown());
      stream.end();
      return stream;
    }
    let last: ConversationStatusDto | undefined;
    const emit = () => {
      const answer = hub.answer(hash, requestKey);
      if (answer === undefined) return;
      let status: ConversationStatusDto;
      try {
        status = readConversation(replay(answer).body as ConversationStatusDto, reading);
      } catch (error) {
        stream.push(error as Error);
        stream.end();
        return;
      }
      if (!last || changed(last, status)) {
        last = status;
        stream.push(status);
      }
      if (status.endedAt != null) stream.end();
    };
    const end = (error?: Error) => {
      if (error) stream.push(error);
      stream.end();
    };
    const watcher = { changed: emit, ended: end };
    const read = hub.watch(authorization, requestKey, template, undefined, watcher);
    hub.addStream(watcher);
    stream.whenEnded(() => {
      hub.dropStream(watcher);
      read.unwatch(watcher);
    });
    // A subscriber joining a followed call gets its latest state at once, without a read.
    emit();
    return stream;
  }
}

function changed(before: ConversationStatusDto, after: ConversationStatusDto): boolean {
  return (
    before.duration !== after.duration ||
    before.startedAt !== after.startedAt ||
    before.endedAt !== after.endedAt ||
    before.status !== after.status
  );
}
