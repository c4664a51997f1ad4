import { connect, type Socket } from 'node:net';

/**
 * An open-loop HTTP/1.1 load generator for latency at a given rate, run as its own process by the
 * serve bench (`node paced-load.js <url> <json body> <requests/s> <seconds> <connections>`) so that
 * it and the server never share an event loop. Requests are due at evenly spaced times (not in
 * bursts, as autocannon's `-R` sends them: each connection at full speed until its quota of the
 * second is used); every 1 ms timer tick writes those due on idle keep-alive connections (a due
 * request waits for one when all are busy). Latency runs from the write to the whole response;
 * how late each write was against its due time is reported apart (`lagP99`), so a generator that
 * cannot keep up shows. Prints one JSON line: requests answered and failed (status ≥ 400 or a lost
 * connection), the rate achieved, latency p50/p99/max (ms), write lag p99 and max (ms) and the
 * CPU this process used (ms).
 */
const [target, body, rateArg, secondsArg, connectionsArg] = process.argv.slice(2);
const url = new URL(target);
const rate = Number(rateArg);
const seconds = Number(secondsArg);
const request = Buffer.from(`POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
const HEADERS_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length: *(\d+)/i;

const latencies: number[] = [];
const lags: number[] = [];
/** Answers of status ≥ 400, and requests whose connection was lost. */
let refused = 0;
let lost = 0;
const idle: Connection[] = [];
/** Due times of the requests waiting for an idle connection. */
const waiting: number[] = [];

/** One keep-alive connection with at most one request in flight. */
class Connection {
  private readonly socket: Socket;
  private received: Buffer = Buffer.alloc(0);
  private sentAt = 0;

  constructor(ready: () => void, unreachable: (error: Error) => void) {
    this.socket = connect(Number(url.port), url.hostname, ready);
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', (error) => { if (this.socket.connecting) unreachable(error); });
    this.socket.on('close', () => { if (this.sentAt !== 0) lost++; });
  }

  send(due: number): void {
    this.sentAt = performance.now();
    lags.push(this.sentAt - due);
    this.socket.write(request);
  }

  close(): void {
    this.sentAt = 0;
    this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
    const end = this.received.indexOf(HEADERS_END);
    if (end < 0) return;
    const head = this.received.toString('latin1', 0, end);
    const length = Number(CONTENT_LENGTH.exec(head)?.[1] ?? 0);
    if (this.received.length < end + 4 + length) return;
    latencies.push(performance.now() - this.sentAt);
    if (Number(head.slice(9, 12)) >= 400) refused++;
    this.received = this.received.subarray(end + 4 + length);
    this.sentAt = 0;
    const due = waiting.shift();
    if (due === undefined) idle.push(this);
    else this.send(due);
  }
}

const connections = await Promise.all(Array.from({ length: Number(connectionsArg) }, () => new Promise<Connection>((resolve, reject) => {
  const made: Connection = new Connection(() => resolve(made), reject);
})));
idle.push(...connections);
const cpu = process.cpuUsage();
const start = performance.now();
const total = Math.round(rate * seconds);
let next = 0;
/** Past this, what is unanswered counts as failed. */
const giveUpAt = start + (seconds + 10) * 1000;
await new Promise<void>((resolve) => {
  const tick = (): void => {
    const now = performance.now();
    for (; next < total && start + (next * 1000) / rate <= now; next++) {
      const due = start + (next * 1000) / rate;
      const connection = idle.pop();
      if (connection === undefined) waiting.push(due);
      else connection.send(due);
    }
    if ((next < total || latencies.length + lost < total) && now < giveUpAt) setTimeout(tick, 1);
    else resolve();
  };
  tick();
});
const elapsed = (performance.now() - start) / 1000;
const used = process.cpuUsage(cpu);
for (const connection of connections) connection.close();
const quantile = (values: number[], q: number): number => values[Math.min(values.length - 1, Math.floor(q * values.length))] ?? NaN;
latencies.sort((a, b) => a - b);
lags.sort((a, b) => a - b);
process.stdout.write(`${JSON.stringify({
  requests: latencies.length, failed: refused + total - latencies.length, requestsPerSecond: latencies.length / elapsed,
  p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), max: latencies.at(-1) ?? NaN,
  lagP99: quantile(lags, 0.99), lagMax: lags.at(-1) ?? NaN, cpuMs: (used.user + used.system) / 1000,
})}\n`);
