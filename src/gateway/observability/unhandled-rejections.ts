import type { YogaLogger } from "graphql-yoga";
import type { GatewayMetrics } from "./metrics.ts";

/** The longest piece of a reason's message a line carries. */
const MESSAGE_CHARS = 200;

/**
 * The process's belt (`npm start`): a rejection nothing handled is logged as an error and counted
 * (`voicegraph_unhandled_rejections_total`), and the process goes on serving. Every promise a
 * request starts is handled where it starts (docs/upstream-sharing.md); this only keeps one that
 * slipped through from ending every other client's connection with it. Returns the uninstall.
 */
export function surviveUnhandledRejections(gateway: {
  logger: YogaLogger;
  metrics: GatewayMetrics;
}): () => void {
  const onRejection = (reason: unknown) => {
    gateway.metrics.unhandledRejections.inc();
    // Its name and message only: no stack, and a message is cut short (it is not ours to trust).
    const what =
      reason instanceof Error
        ? `${reason.name}: ${reason.message}`
        : `a non-error: ${typeof reason}`;
    gateway.logger.error(
      `an unhandled rejection, counted; the process goes on: ${what.slice(0, MESSAGE_CHARS)}`,
    );
  };
  process.on("unhandledRejection", onRejection);
  return () => process.off("unhandledRejection", onRejection);
}
