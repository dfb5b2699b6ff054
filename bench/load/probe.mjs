// The load bench's probe, a process of its own so that the bench's own work (the upload clients, autocannon)
// does not delay it: asks <url> on one keep-alive connection every <ms> until SIGTERM, then prints the
// latencies as JSON. An optional third argument is the request as JSON ({ method, headers, body }). On
// loopback an idle route answers in well under a millisecond, so a slow answer is the server being busy.
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const [url, every = '20', spec = '{}'] = process.argv.slice(2);
const { method = 'GET', headers = {}, body } = JSON.parse(spec);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const times = [];
let errors = 0;
let running = true;
// The probe's own delay: a probe not scheduled on a busy machine would look like a slow server.
const own = monitorEventLoopDelay({ resolution: 5 });
own.enable();

function once() {
  return new Promise((resolve) => {
    const start = performance.now();
    const req = http.request(url, { agent, method, headers }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode === 200) times.push(performance.now() - start);
        else errors++;
        resolve();
      });
    });
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.on('error', () => {
      errors++;
      resolve();
    });
    req.end(body);
  });
}

process.on('SIGTERM', () => {
  running = false;
});
while (running) {
  await once();
  await new Promise((r) => setTimeout(r, Number(every)));
}
own.disable();
times.sort((a, b) => a - b);
const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
process.stdout.write(
  `${JSON.stringify({ count: times.length, errors, p50: at(0.5), p99: at(0.99), max: times.at(-1) ?? 0, ownMax: own.max / 1e6 })}\n`,
);
agent.destroy();
