import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { LogThrottle } from '../logger.ts';
import { clientBucket } from './client-key.ts';

// Idle and slow connections must not take the shop offline (issue 15.2): one client trickling bodies on
// thousands of sockets once used up every file descriptor. Four limits, each logged (once a minute at most)
// when it bites:
// - headers must arrive within HEADERS_TIMEOUT_MS (Node's headersTimeout);
// - a JSON body must arrive within JSON_BODY_DEADLINE_MS of the request's start;
// - an upload's body must keep moving: at least UPLOAD_MIN_BYTES_PER_S over every UPLOAD_RATE_WINDOW_MS;
// - one client address (an IPv6 /64) holds at most `perAddress` open connections, and the server `max` in all.
// Behind proxies (TRUST_PROXY > 0) every connection comes from a proxy, so the per-address cap is off there:
// the proxy is where to cap clients.
// Many addresses holding idle keep-alive sockets could still fill `max` (65 x 64 > 4096) and leave health
// checks unanswered, so the total is kept by hand (issue 28): past three quarters of `max` idle sockets are
// kept only PRESSURE_KEEP_ALIVE_MS; at `max` a new connection closes the socket idle the longest; when every
// socket is busy, `reserve` more are let in for /healthz and /readyz only (anything else: 503, closed).

export const HEADERS_TIMEOUT_MS = 10_000;
export const JSON_BODY_DEADLINE_MS = 15_000;
export const UPLOAD_RATE_WINDOW_MS = 20_000;
export const UPLOAD_MIN_BYTES_PER_S = 4 * 1024;
const CHECK_EVERY_MS = 1000;
/** Idle keep-alive time once three quarters of the connections are in use (Fastify's default is 72 s). */
export const PRESSURE_KEEP_ALIVE_MS = 1000;
export const HEALTH_PATHS: readonly string[] = ['/healthz', '/readyz'];
export const BUSY_MESSAGE = 'The shop is very busy right now. Please try again in a moment.';

export type ConnectionLimits = {
  /** Open connections one client address may hold (default 64); 0 = no per-address cap. */
  perAddress: number;
  /** Open connections in all (default 4096: well under the usual 20,000 file descriptors). */
  max: number;
  /** Connections past `max` kept for health checks when every other one is busy (default max/64, >= 8). */
  reserve?: number;
  /** Paths whose bodies are uploads (a minimum rate instead of a deadline). */
  uploadPaths: readonly string[];
  jsonBodyDeadlineMs?: number;
  uploadWindowMs?: number;
};

export function guardConnections(app: FastifyInstance, limits: ConnectionLimits): void {
  const server: Server = app.server;
  const log = app.log;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  const reserve = limits.reserve ?? Math.max(8, Math.floor(limits.max / 64));
  // The per-address cap first: a client over its share is refused before it can evict anyone.
  if (limits.perAddress > 0) capPerAddress(server, limits.perAddress, log);
  const total = capTotal(server, limits.max, reserve, log);
  app.addHook('onRequest', async (req, reply) => {
    if (!total.isReserve(req.raw.socket) || HEALTH_PATHS.includes(req.url.split('?')[0] ?? '')) return;
    reply.header('connection', 'close').header('retry-after', '5');
    return reply.code(503).send({ error: BUSY_MESSAGE });
  });

  const deadline = limits.jsonBodyDeadlineMs ?? JSON_BODY_DEADLINE_MS;
  const window = limits.uploadWindowMs ?? UPLOAD_RATE_WINDOW_MS;
  const slow = new LogThrottle();
  const cut = (socket: Socket, why: string) => {
    const n = slow.take();
    if (n)
      log.warn({ cut: n, remoteAddress: socket.remoteAddress, why }, 'cut a request whose body was too slow');
    // app.inject's stand-in socket has no destroy (nor a `complete` request): a slow machine can make an
    // injected request outlast the deadline in a test, and that must not throw from this timer.
    if (typeof socket.destroy === 'function') socket.destroy();
  };
  // Set while a request's body arrives: the deadline is for receiving it, never for handling it.
  const receiving = new WeakMap<object, ReturnType<typeof setInterval>>();
  app.addHook('preValidation', async (req) => {
    clearInterval(receiving.get(req));
  });
  app.addHook('onRequest', async (req) => {
    const raw = req.raw;
    if (raw.complete || !hasBody(raw.headers)) return;
    const socket = raw.socket;
    const started = Date.now();
    const upload = limits.uploadPaths.includes(req.url.split('?')[0] ?? '');
    let windowStart = started;
    let windowBytes = socket.bytesRead;
    const timer = setInterval(() => {
      if (raw.complete || socket.destroyed) return clearInterval(timer);
      const now = Date.now();
      if (!upload) {
        if (now - started > deadline) cut(socket, 'body deadline');
        return;
      }
      if (now - windowStart < window) return;
      const rate = ((socket.bytesRead - windowBytes) * 1000) / (now - windowStart);
      if (rate < UPLOAD_MIN_BYTES_PER_S) return cut(socket, 'upload below the minimum rate');
      windowStart = now;
      windowBytes = socket.bytesRead;
    }, CHECK_EVERY_MS);
    timer.unref();
    receiving.set(req, timer);
    raw.once('end', () => clearInterval(timer));
    raw.once('close', () => clearInterval(timer));
  });
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return (typeof length === 'string' && length !== '0') || headers['transfer-encoding'] !== undefined;
}

function capPerAddress(server: Server, perAddress: number, log: FastifyBaseLogger): void {
  const open = new Map<string, number>();
  const refused = new LogThrottle();
  server.on('connection', (socket: Socket) => {
    const key = clientBucket(socket.remoteAddress ?? '');
    const count = (open.get(key) ?? 0) + 1;
    if (count > perAddress) {
      const n = refused.take();
      if (n) log.warn({ refused: n, client: key, perAddress }, 'one client holds too many connections');
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
}

type Tracked = { inFlight: number; reserve: boolean };

/**
 * Keeps at most `max` connections (plus `reserve` for health checks), closing the longest-idle one to make
 * room. `idle` is in the order sockets became idle, so its first entry is the one to close.
 */
function capTotal(server: Server, max: number, reserve: number, log: FastifyBaseLogger) {
  const open = new Map<Socket, Tracked>();
  const idle = new Map<Socket, true>();
  let reserved = 0;
  const normalKeepAlive = server.keepAliveTimeout;
  // Node itself refuses past this (the 'drop' event): a backstop only (it also counts sockets closed
  // here that have not finished closing).
  server.maxConnections = max + reserve + 64;
  const evicted = new LogThrottle();
  const refused = new LogThrottle();
  server.on('drop', () => {
    const n = refused.take();
    if (n) log.warn({ dropped: n, max }, 'connection limit reached: new connections are refused');
  });

  const pressure = () => {
    if (open.size >= (max * 3) / 4)
      server.keepAliveTimeout = Math.min(normalKeepAlive, PRESSURE_KEEP_ALIVE_MS);
    else if (open.size < max / 2) server.keepAliveTimeout = normalKeepAlive;
  };

  server.on('connection', (socket: Socket) => {
    if (socket.destroyed) return; // refused by the per-address cap
    // Full: the longest-idle ordinary socket makes room. Failing that, the newcomer may take a reserve
    // place (health checks only), closing the longest-idle reserve socket when the reserve is full too.
    let inReserve = false;
    if (open.size - reserved >= max) {
      const victim = oldestIdle(false);
      if (victim) close(victim);
      else {
        inReserve = true;
        if (reserved >= reserve) {
          const idleReserve = oldestIdle(true);
          if (!idleReserve) {
            const n = refused.take();
            if (n) log.warn({ dropped: n, max }, 'connection limit reached: new connections are refused');
            socket.destroy();
            return;
          }
          close(idleReserve);
        }
      }
    }
    const tracked: Tracked = { inFlight: 0, reserve: inReserve };
    if (inReserve) reserved++;
    open.set(socket, tracked);
    idle.set(socket, true); // nothing asked yet
    pressure();
    socket.once('close', () => forget(socket));
  });

  // At most `reserve` reserve sockets are skipped on the way to an ordinary one.
  function oldestIdle(inReserve: boolean): Socket | undefined {
    for (const socket of idle.keys()) if (open.get(socket)?.reserve === inReserve) return socket;
    return undefined;
  }

  function close(socket: Socket) {
    forget(socket);
    socket.destroy();
    const n = evicted.take();
    if (n) log.warn({ closed: n, max }, 'connection limit reached: closed the longest-idle connections');
  }

  function forget(socket: Socket) {
    const tracked = open.get(socket);
    if (!tracked) return;
    open.delete(socket);
    idle.delete(socket);
    if (tracked.reserve) reserved--;
    pressure();
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const tracked = open.get(socket);
    if (!tracked) return;
    tracked.inFlight++;
    idle.delete(socket);
    res.once('close', () => {
      tracked.inFlight--;
      if (tracked.inFlight === 0 && open.has(socket) && !socket.destroyed) idle.set(socket, true);
    });
  });

  return { isReserve: (socket: Socket) => open.get(socket)?.reserve === true };
}
