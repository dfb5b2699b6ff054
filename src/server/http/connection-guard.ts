import type { Server } from 'node:http';
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
// - one client address holds at most `perAddress` open connections, and the server `max` in all.
// Behind proxies (TRUST_PROXY > 0) every connection comes from a proxy, so the per-address cap is off there:
// the proxy is where to cap clients.

export const HEADERS_TIMEOUT_MS = 10_000;
export const JSON_BODY_DEADLINE_MS = 15_000;
export const UPLOAD_RATE_WINDOW_MS = 20_000;
export const UPLOAD_MIN_BYTES_PER_S = 4 * 1024;
const CHECK_EVERY_MS = 1000;

export type ConnectionLimits = {
  /** Open connections one client address may hold (default 64); 0 = no per-address cap. */
  perAddress: number;
  /** Open connections in all (default 4096: well under the usual 20,000 file descriptors). */
  max: number;
  /** Paths whose bodies are uploads (a minimum rate instead of a deadline). */
  uploadPaths: readonly string[];
  jsonBodyDeadlineMs?: number;
  uploadWindowMs?: number;
};

export function guardConnections(app: FastifyInstance, limits: ConnectionLimits): void {
  const server: Server = app.server;
  const log = app.log;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.maxConnections = limits.max;
  const dropped = new LogThrottle();
  server.on('drop', () => {
    const n = dropped.take();
    if (n) log.warn({ dropped: n, max: limits.max }, 'connection limit reached: new connections are refused');
  });

  if (limits.perAddress > 0) capPerAddress(server, limits.perAddress, log);

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
