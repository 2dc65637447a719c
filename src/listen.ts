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
