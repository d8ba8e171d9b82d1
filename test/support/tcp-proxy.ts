// A real TCP proxy between the service and a server (PostgreSQL), to reproduce outages: `freeze`
// stops forwarding in both directions while every socket stays open (a frozen server or a
// silently dropped network path: no error, no answer), `cut` closes everything and refuses new
// connections (an unreachable server). Bytes held while frozen are delivered on `thaw`.
import net from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  freeze(): void;
  thaw(): void;
  /** Bytes the service sent since the last freeze that the server has not seen. */
  readonly heldBytes: number;
  cut(): Promise<void>;
  /** Accepts connections again (on the same port) after a cut. */
  reopen(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  readonly client: net.Socket;
  readonly server: net.Socket;
  readonly toServer: Buffer[];
  readonly toClient: Buffer[];
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let frozen = false;
  let held = 0;

  const relay = (pair: Pair) => {
    const forward = (from: net.Socket, to: net.Socket, queue: Buffer[], counts: boolean) => {
      from.on('data', (chunk: Buffer) => {
        if (frozen) {
          queue.push(chunk);
          if (counts) held += chunk.length;
        } else {
          to.write(chunk);
        }
      });
    };
    forward(pair.client, pair.server, pair.toServer, true);
    forward(pair.server, pair.client, pair.toClient, false);
    const end = () => {
      pairs.delete(pair);
      pair.client.destroy();
      pair.server.destroy();
    };
    pair.client.on('close', end).on('error', end);
    pair.server.on('close', end).on('error', end);
  };

  const listener = net.createServer((client) => {
    const server = net.connect(targetPort, targetHost);
    const pair: Pair = { client, server, toServer: [], toClient: [] };
    pairs.add(pair);
    relay(pair);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(port, '127.0.0.1', () => {
        listener.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (listener.address() as net.AddressInfo).port;

  const destroyAll = () => {
    for (const pair of pairs) {
      pair.client.destroy();
      pair.server.destroy();
    }
    pairs.clear();
  };

  return {
    port,
    via(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    freeze() {
      frozen = true;
      held = 0;
    },
    thaw() {
      frozen = false;
      for (const pair of pairs) {
        for (const chunk of pair.toServer.splice(0)) pair.server.write(chunk);
        for (const chunk of pair.toClient.splice(0)) pair.client.write(chunk);
      }
    },
    get heldBytes() {
      return held;
    },
    async cut() {
      await new Promise<void>((resolve) => {
        listener.close(() => resolve());
        destroyAll();
      });
    },
    reopen: () => listen(port),
    async close() {
      destroyAll();
      if (listener.listening) await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}
