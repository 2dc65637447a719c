import type { ServerResponse } from "node:http";
import { type RecordingUpstream, startRecordingUpstream } from "../upstream/recording-upstream.ts";

/**
 * A real HTTP upstream that answers each request after a delay it is told, by forwarding it to
 * `target` (a sandbox), and counts the requests it has not yet seen end: answered, or cut by the
 * gateway. A gateway that leaves no call behind brings the count back to 0.
 */
export interface HangupUpstream extends RecordingUpstream {
  /** Where requests go (a sandbox's URL); named before the first arrives. */
  forwardTo(url: string): void;
  /** Requests that arrived and have not ended. */
  inFlight(): number;
}

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length"]);

export async function startHangupUpstream(delayMs: () => number): Promise<HangupUpstream> {
  let target = "";
  let open = 0;
  const upstream = await startRecordingUpstream(async (request, res: ServerResponse) => {
    open += 1;
    res.once("close", () => {
      open -= 1;
    });
    await new Promise((resolve) => setTimeout(resolve, delayMs()));
    if (res.destroyed) return;
    const headers = Object.entries(request.headers).filter(
      (entry): entry is [string, string] =>
        typeof entry[1] === "string" &&
        !HOP_BY_HOP.has(entry[0]) &&
        entry[0] !== "host" &&
        entry[0] !== "accept-encoding",
    );
    try {
      const answer = await fetch(new URL(request.url, target), {
        method: request.method,
        headers,
        ...(request.body === "" ? {} : { body: request.body }),
      });
      const body = await answer.text();
      if (res.destroyed) return;
      res.writeHead(
        answer.status,
        [...answer.headers].filter(
          ([name]) => !HOP_BY_HOP.has(name) && name !== "content-encoding",
        ),
      );
      res.end(body);
    } catch {
      // The target went away (a test closing it): the gateway sees its call cut, as it would.
      res.destroy();
    }
  });
  return Object.assign(upstream, {
    forwardTo(url: string) {
      target = url;
    },
    inFlight: () => open,
  });
}
