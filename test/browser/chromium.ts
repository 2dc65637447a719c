import { existsSync } from "node:fs";

/**
 * Debian's Chromium (CHROMIUM_PATH names another), or a failure that says how to install it:
 * a browser test that skips silently proves nothing. .ci/run installs it when missing.
 */
export function chromiumPath(): string {
  const found = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
    (path): path is string => path !== undefined && path !== "" && existsSync(path),
  );
  if (found === undefined) {
    throw new Error(
      "Chromium is not installed: `apt-get install -y chromium` (Debian), or set CHROMIUM_PATH. " +
        ".ci/run installs it when missing.",
    );
  }
  return found;
}
