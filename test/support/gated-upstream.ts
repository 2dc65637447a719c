import { type RecordingUpstream, startRecordingUpstream } from "../upstream/recording-upstream.ts";

/**
 * A real HTTP upstream that holds every request until the test opens its gate, then forwards it
 * to `target` (a sandbox, once it listens) and passes the answer back: a test waits for what
 * must happen while calls are out (every operation joined, say), not for a latency it guessed.
 */
export interface GatedUpstream extends RecordingUpstream {
  /** Where held requests go once the gate opens (a sandbox's URL); named before it opens. */
  forwardTo(url: string): void;
  /** Requests held at the gate now. */
  heldCount(): number;
  /** Lets the requests held now go on; later ones are held until the next call. */
  releaseHeld(): void;
  /** Lets every request go on, held or still to come. */
  open(): void;
  /** Holds every request to come, until the next release. */
  hold(): void;
}

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length"]);

export async function startGatedUpstream(): Promise<GatedUpstream> {
  let isOpen = false;
  let held: (() => void)[] = [];
  const releaseHeld = () => {
    for (const release of held) release();
    held = [];
  };
  let target = "";
  const upstream = await startRecordingUpstream(async (request, res) => {
    if (!isOpen) await new Promise<void>((resolve) => held.push(resolve));
    const headers = Object.entries(request.headers).filter(
      (entry): entry is [string, string] =>
        typeof entry[1] === "string" && !HOP_BY_HOP.has(entry[0]),
    );
    const answer = await fetch(new URL(request.url, target), {
      method: request.method,
      headers: headers.filter(([name]) => name !== "host" && name !== "accept-encoding"),
      ...(request.body === "" ? {} : { body: request.body }),
    });
    const body = await answer.text();
    res.writeHead(
      answer.status,
      [...answer.headers].filter(([name]) => !HOP_BY_HOP.has(name) && name !== "content-encoding"),
    );
    res.end(body);
  });
  return Object.assign(upstream, {
    forwardTo(url: string) {
      target = url;
    },
    heldCount: () => held.length,
    releaseHeld,
    open() {
      isOpen = true;
      releaseHeld();
    },
    hold() {
      isOpen = false;
    },
  });
}
