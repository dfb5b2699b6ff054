// autocannon as the load bench uses it: one route at a time, and the figures it prints.
import autocannon from 'autocannon';

export type Target = {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
};

export type Figures = {
  name: string;
  connections: number;
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** Connection errors and timeouts. */
  errors: number;
  non2xx: number;
  statuses: string;
};

function figures(name: string, r: autocannon.Result): Figures {
  const statuses = Object.entries(r.statusCodeStats ?? {})
    .map(([code, s]) => `${code} x${s.count ?? 0}`)
    .join(', ');
  return {
    name,
    connections: r.connections,
    requests: r.requests.total,
    perSecond: r.requests.total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    statuses,
  };
}

/**
 * Starts a load on `target`; `done` resolves when it ends (after `seconds`, or at `stop()`). Without `rate`
 * every connection asks again as soon as it is answered (the most the server gives); with it, `rate`
 * requests a second in all, latencies corrected for the requests a slow answer held back.
 */
export function load(target: Target, connections: number, seconds: number, rate?: number) {
  let instance: autocannon.Instance | undefined;
  const done = new Promise<Figures>((resolve, reject) => {
    instance = autocannon(
      {
        url: target.url,
        method: target.method ?? 'GET',
        headers: target.headers,
        body: target.body,
        connections,
        duration: seconds,
        timeout: 10,
        ...(rate ? { overallRate: rate } : {}),
      },
      (err, result) => (err ? reject(err) : resolve(figures(target.name, result))),
    );
  });
  return { done, stop: () => instance?.stop() };
}

const pad = (s: string | number, n: number) => String(s).padStart(n);

export const TABLE_HEADER = `${'route'.padEnd(30)} conns     req/s    p50 ms    p99 ms   errors  non-2xx   req/s ratio  p99 ratio`;

/** A table row; the ratios against the baseline's figures at the same number of connections. */
export function row(f: Figures, base?: Figures): string {
  // Two significant digits below 0.1 (a route at 0.004x the baseline is not 0.00x).
  const ratio = (a: number, b: number) =>
    b > 0 ? `${a / b < 0.1 ? (a / b).toPrecision(2) : (a / b).toFixed(2)}x` : '-';
  return `${f.name.padEnd(30)} ${pad(f.connections, 5)} ${pad(f.perSecond.toFixed(0), 9)} ${pad(f.p50.toFixed(1), 9)} ${pad(
    f.p99.toFixed(1),
    9,
  )} ${pad(f.errors, 8)} ${pad(f.non2xx, 8)} ${pad(base ? ratio(f.perSecond, base.perSecond) : '', 13)} ${pad(
    // autocannon counts whole milliseconds: a baseline p99 under 1 ms counts as 1 ms.
    base ? ratio(f.p99, Math.max(1, base.p99)) : '',
    10,
  )}`;
}
