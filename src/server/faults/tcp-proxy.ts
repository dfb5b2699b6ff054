import net from 'node:net';

// A TCP proxy between the app and PostgreSQL, so a test can "restart" the database for its own app only:
// the machine's server is shared with other test runs and is never touched.

export type TcpProxy = {
  /** The port the proxy listens on (the same across outages). */
  readonly port: number;
  /** Connections passed through since the start. */
  readonly accepted: number;
  /** A restart: every proxied connection is cut and new ones are refused until `up()`. */
  down(): Promise<void>;
  /** Accepts connections again, on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  let port = 0;
  let server: net.Server | undefined;

  const listen = async () => {
    const s = net.createServer((client) => {
      accepted++;
      const upstream = net.connect(target.port, target.host);
      sockets.add(client);
      sockets.add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    port = (s.address() as net.AddressInfo).port;
    server = s;
  };

  const down = async () => {
    const s = server;
    server = undefined;
    // Closed first, so nothing new gets in while the open connections are cut.
    const closed = s ? new Promise<void>((resolve) => s.close(() => resolve())) : Promise.resolve();
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await closed;
  };

  await listen();
  return {
    get port() {
      return port;
    },
    get accepted() {
      return accepted;
    },
    down,
    up: async () => {
      if (!server) await listen();
    },
    close: down,
  };
}
