/**
 * How long a test waits for an event before calling it lost. A bound against hangs, not a
 * speed: far above what a busy machine adds, so only a defect reaches it.
 */
export const WAIT_MS = 20_000;
