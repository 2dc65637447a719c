import { once } from "node:events";
import { connect } from "node:net";

/**
 * How a new connection to a loopback port ends: undefined when something accepts it, else its
 * error code. A connection from the port to itself counts as refused: TCP's simultaneous open
 * makes one only while nothing listens there, when the kernel picks that free port as the
 * client's own source port.
 */
export async function connectError(port: number): Promise<string | undefined> {
  const socket = connect(port, "127.0.0.1");
  try {
    await once(socket, "connect");
    return socket.localPort === port ? "ECONNREFUSED" : undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code;
  } finally {
    socket.destroy();
  }
}
