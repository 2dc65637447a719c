import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Listens and resolves to the server's base URL, e.g. "http://127.0.0.1:4000" (port 0: any). */
export async function listenHttp(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${shownHost}:${address.port}`;
}

/**
 * One line for a port that cannot be listened on, naming the variable that chooses it, or
 * undefined for any other failure: a newcomer's busy port is no crash to show a stack for.
 */
export function portProblem(error: unknown, program: string, variable: string): string | undefined {
  const { code, address, port } = (error ?? {}) as {
    code?: unknown;
    address?: string;
    port?: number;
  };
  if (code !== "EADDRINUSE" && code !== "EACCES") return undefined;
  const why = code === "EADDRINUSE" ? "is in use" : "may not be used by this user";
  return `${program} could not start: port ${port} on ${address} ${why}; set ${variable} to another port (${variable}=0: any free port)`;
}
