import fc from 'fast-check';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BanditHttpService, type DecisionMaker } from '../../bandit/kafka/bandit-http-service.js';
import { BanditMetrics } from '../../bandit/kafka/bandit-metrics.js';
import type { LoggedDecision } from '../../bandit/kafka/logged-decision.js';
import { HostAllowList } from '../../monitoring/host-allow-list.js';
import { HttpEdge, type HttpEdgeOptions } from '../../monitoring/http-edge.js';
import { MetricsServer } from '../../monitoring/metrics-server.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { Readiness } from '../../monitoring/readiness.js';
import { LiveView } from '../../monitoring/live-view.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';
import { openSocket, rawRequest, readAnswer } from '../helpers/raw-http.js';
import { waitFor } from '../helpers/wait-for.js';

/** A decider that decides at once (or never, with `hang`), without Kafka. */
class StubDecider implements DecisionMaker {
  readonly instanceId = 'stub';
  readonly ready = true;
  readonly policyRewards = 0;
  readonly policyVersion = 1;
  hang = false;

  decide(context: ArrayLike<number>): Promise<LoggedDecision> {
    if (this.hang) return new Promise(() => undefined);
    return Promise.resolve({ decisionId: 'stub-1', arm: 0, propensity: 1, propensityMethod: 'exact', scores: [0], context: Array.from(context), decidedAt: 0, instance: 'stub', policyRewards: 0 });
  }

  async reward(): Promise<void> {}
}

type Service = MetricsServer | BanditHttpService;
const open: Service[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

function metricsServer(options: Partial<ConstructorParameters<typeof MetricsServer>[0]> = {}): { server: MetricsServer; metrics: PipelineMetrics } {
  const metrics = new PipelineMetrics({ defaultMetrics: false });
  const server = new MetricsServer({ metrics, readiness: new Readiness(), port: 0, live: new LiveView({ metrics }), ...options });
  open.push(server);
  return { server, metrics };
}

function banditService(options: Partial<ConstructorParameters<typeof BanditHttpService>[0]> = {}): { server: BanditHttpService; decider: StubDecider } {
  const decider = new StubDecider();
  const monitoring = new PipelineMetrics({ defaultMetrics: false });
  const server = new BanditHttpService({ decider, exposition: monitoring, metrics: new BanditMetrics(monitoring.registry, 'decider'), port: 0, ...options });
  open.push(server);
  return { server, decider };
}

/** A request line's parts, headers and body: mostly well formed (so most requests reach the services' routes), some garbage; no CR or LF (one request per connection). */
const line = (text: fc.Arbitrary<string>): fc.Arbitrary<string> => text.map((s) => s.replace(/[\r\n]/g, ''));
const mostly = <T>(good: fc.Arbitrary<T>, ...bad: fc.Arbitrary<T>[]): fc.Arbitrary<T> => fc.oneof({ arbitrary: good, weight: 6 * bad.length }, ...bad.map((arbitrary) => ({ arbitrary, weight: 1 })));
const methods = mostly(
  fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'CONNECT', 'PRI', 'M-SEARCH', 'PROPFIND', 'SOURCE'),
  fc.stringMatching(/^[A-Za-z!#$%&'*+.^_`|~-]{1,12}$/),
  line(fc.string({ minLength: 1, maxLength: 8 })),
);
const targets = mostly(
  fc.constantFrom('/', '//', '///', '//metrics', '/metrics', '/healthz', '/readyz', '/health', '/decide', '/reward', '/events', '/live/live.js', '/favicon.ico',
    '*', 'http://evil.example/metrics', 'https://127.0.0.1/health', '//evil.example/x', '/%', '/%zz', '/%00', '/..', '/../metrics', '/./health', '/metrics?x=%',
    '/\\', '/?', '/#x', 'metrics', '/é', '/metrics/', '/decide?context=1'),
  fc.webPath(),
  line(fc.string({ maxLength: 30 })),
  line(fc.string({ maxLength: 30, unit: 'binary' })),
);
const versions = mostly(fc.constant('HTTP/1.1'), fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/1.1 ', 'HTTP/1', 'http/1.1', ''));
const headerNames = mostly(
  fc.constantFrom('Content-Length', 'Transfer-Encoding', 'Expect', 'Connection', 'Upgrade', 'Content-Type', 'Accept', 'X-Forwarded-Host', 'Origin', 'Host'),
  fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/),
  line(fc.string({ maxLength: 12 })),
);
const headerValues = mostly(
  fc.constantFrom('127.0.0.1', 'localhost', 'evil.example', '[::1]', '0', '-1', '5', 'chunked', 'gzip, chunked', '100-continue', 'close', 'keep-alive, Upgrade', 'websocket', 'h2c',
    '99999999999999999999', 'application/json', ''),
  fc.stringMatching(/^[ -~]{0,24}$/),
  line(fc.string({ maxLength: 24, unit: 'binary' })),
);
const routes = fc.constantFrom<[string, string]>(['GET', '/metrics'], ['HEAD', '/metrics'], ['GET', '/healthz'], ['GET', '/readyz'], ['GET', '/'], ['GET', '/events'], ['GET', '/live/live.css'],
  ['GET', '/health'], ['POST', '/decide'], ['POST', '/reward']);
const requests = fc.record({
  line: fc.oneof(routes, fc.tuple(methods, targets)),
  version: versions,
  host: fc.option(fc.constantFrom('127.0.0.1', 'localhost', 'evil.example', '', '[::1]', '127.0.0.1:1'), { nil: undefined, freq: 6 }),
  headers: fc.array(fc.tuple(headerNames, headerValues), { maxLength: 4 }),
  body: fc.option(mostly(fc.constantFrom('{"context": [1, 2]}', '{"decisionId": "stub-1", "reward": 1}', '[]', '{', '{"context": [[[[1]]]]}'), line(fc.string({ maxLength: 40 }))), { nil: undefined }),
});

/**
 * Raw requests — methods, targets and headers that a client library would refuse to send — over a
 * `node:net` socket: each is answered with a status (never a 5xx: the service is healthy, only the
 * request is bad or unknown), the connection ends, and the service answers a good request after.
 */
async function fuzz(port: number, good: string): Promise<void> {
  await fc.assert(fc.asyncProperty(requests, async ({ line: [method, target], version, host, headers, body }) => {
    const head = [`${method} ${target} ${version}`, ...(host === undefined ? [] : [`Host: ${host === '' ? '' : host.startsWith('127.0.0.1') && host !== '127.0.0.1:1' ? `127.0.0.1:${port}` : host}`]), ...headers.map(([n, v]) => `${n}: ${v}`)];
    const answer = await rawRequest(port, `${head.join('\r\n')}\r\n\r\n${body ?? ''}`);
    expect(answer.status, `no answer to ${JSON.stringify(head)}: ${JSON.stringify(answer.text)}`).toBeDefined();
    expect(answer.status, `${JSON.stringify(head)} → ${answer.text}`).toBeLessThan(500);
  }), { numRuns: 250, seed: 26 });
  const after = await fetch(`http://127.0.0.1:${port}${good}`);
  expect(after.status).toBe(200);
}

describe('one HTTP edge for every service (issue 26)', () => {
  it('a raw GET // neither stops the decide service nor answers 500 (item 9)', async () => {
    const { server } = banditService();
    const port = await server.listen();
    expect((await rawRequest(port, `GET // HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    const metrics = metricsServer().server;
    const metricsPort = await metrics.listen();
    expect((await rawRequest(metricsPort, `GET // HTTP/1.1\r\nHost: 127.0.0.1:${metricsPort}\r\n\r\n`)).status).toBe(404);
  });

  it('answers every fuzzed request line, target, method and header set of the decide service with a 2xx–4xx and keeps serving (item 9)', async () => {
    const { server } = banditService({ headersTimeoutMs: 200, bodyTimeoutMs: 200 }); // requests that never end are answered 408 soon
    await fuzz(await server.listen(), '/health');
  });

  it('answers every fuzzed request of the metrics and live server with a 2xx–4xx and keeps serving (item 9)', async () => {
    const { server } = metricsServer({ headersTimeoutMs: 200, bodyTimeoutMs: 200 });
    await fuzz(await server.listen(), '/healthz');
  });

  it('refuses a deeply nested JSON body with 400 naming body, not a 500 stack overflow (item 13)', async () => {
    const { server } = banditService();
    const port = await server.listen();
    for (const body of [`{"context": ${'['.repeat(20_000)}${']'.repeat(20_000)}}`, `{"context": [1, ${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}]}`]) {
      const response = await fetch(`http://127.0.0.1:${port}/decide`, { method: 'POST', body });
      const { error } = await response.json() as { error: { kind: string; message: string; location: { field: string } } };
      expect(response.status).toBe(400);
      expect(error).toMatchObject({ kind: 'input', location: { field: 'body' } });
      expect(error.message).toMatch(/nest/);
    }
  });

  it('the depth limit holds at its bound for the shortest texts (a text under 2 (limit + 1) characters is not counted)', async () => {
    const { server } = banditService();
    const port = await server.listen();
    for (const depth of [64, 65]) {
      const response = await fetch(`http://127.0.0.1:${port}/decide`, { method: 'POST', body: `${'['.repeat(depth)}${']'.repeat(depth)}` });
      const { error } = await response.json() as { error: { message: string; location: { field: string } } };
      expect(response.status).toBe(400);
      expect(error.location.field).toBe('body');
      expect(error.message).toMatch(depth > 64 ? /nests .* deeper than 64/ : /must be a JSON object/);
    }
  });

  it('answers slow bodies 408 within the body deadline and lets their connections go (item 13)', async () => {
    const { server } = banditService({ bodyTimeoutMs: 300 });
    const port = await server.listen();
    const slow = await Promise.all(Array.from({ length: 100 }, async () => {
      const socket = await openSocket(port);
      const answer = readAnswer(socket);
      socket.write(`POST /decide HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"context": [`);
      return answer;
    }));
    expect(slow.map((a) => a.status)).toEqual(new Array(100).fill(408));
    expect(JSON.parse(slow[0].text.slice(slow[0].text.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: { kind: 'input', location: { field: 'body' }, retriable: false } });
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  });

  it('answers a request whose headers never end 408 within the headers deadline (item 13)', async () => {
    const { server } = metricsServer({ headersTimeoutMs: 300 });
    const port = await server.listen();
    const socket = await openSocket(port);
    const answer = readAnswer(socket);
    socket.write(`GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: a`);
    expect((await answer).status).toBe(408);
  });

  it('caps the open connections: one over the cap is closed unanswered, and a place freed is taken again (item 13)', async () => {
    const { server } = metricsServer({ maxConnections: 4 });
    const port = await server.listen();
    const held = await Promise.all(Array.from({ length: 4 }, async () => {
      const socket = await openSocket(port);
      socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`); // answered, then held open (keep-alive)
      return socket;
    }));
    const refused = await rawRequest(port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    expect(refused).toEqual({ status: undefined, text: '' });
    const closed = once(held[0], 'close');
    held[0].destroy();
    await closed;
    let status: number | undefined;
    for (let attempt = 0; attempt < 100 && status === undefined; attempt++) status = (await rawRequest(port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`)).status;
    expect(status).toBe(200);
    for (const socket of held) socket.destroy();
  });

  it('serves only the hosts of its allow-list: the bound address and localhost by default (item 13)', async () => {
    const { server } = metricsServer();
    const port = await server.listen();
    const get = async (host: string, path = '/metrics') => rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect((await get(`127.0.0.1:${port}`)).status).toBe(200);
    expect((await get(`localhost:${port}`)).status).toBe(200);
    expect((await get('LOCALHOST')).status).toBe(200);
    const rebound = await get(`attacker.example:${port}`);
    expect(rebound.status).toBe(421);
    expect(rebound.text).toMatch(/host "attacker\.example" is not served here.*127\.0\.0\.1, localhost/);
    expect((await get(`attacker.example:${port}`, '/events')).status).toBe(421);

    const listed = metricsServer({ allowedHosts: ['metrics.internal'] }).server;
    const listedPort = await listed.listen();
    expect((await rawRequest(listedPort, `GET /healthz HTTP/1.1\r\nHost: metrics.internal:${listedPort}\r\nConnection: close\r\n\r\n`)).status).toBe(200);
    expect((await rawRequest(listedPort, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${listedPort}\r\nConnection: close\r\n\r\n`)).status).toBe(200);
    const any = metricsServer({ allowedHosts: ['*'] }).server;
    const anyPort = await any.listen();
    expect((await rawRequest(anyPort, `GET /healthz HTTP/1.1\r\nHost: anything.example\r\nConnection: close\r\n\r\n`)).status).toBe(200);
  });

  it('bound to 0.0.0.0, serves the machine\'s own addresses and refuses other names (item 13)', async () => {
    const external = Object.values(networkInterfaces()).flat().find((i) => i !== undefined && i.family === 'IPv4' && !i.internal);
    expect(external, 'this test needs a non-loopback IPv4 interface').toBeDefined();
    const { server } = banditService({ host: '0.0.0.0' });
    const port = await server.listen();
    expect((await rawRequest(port, `GET /health HTTP/1.1\r\nHost: ${external!.address}:${port}\r\nConnection: close\r\n\r\n`)).status).toBe(200);
    const refused = await rawRequest(port, `GET /health HTTP/1.1\r\nHost: decide.example.com\r\nConnection: close\r\n\r\n`);
    expect(refused.status).toBe(421);
    expect(JSON.parse(refused.text.slice(refused.text.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: { kind: 'input', location: { field: 'host', value: 'decide.example.com' } } });
  });

  it('answers a request that outlives the request deadline 503, retriable, with Retry-After, and keeps serving (item 10)', async () => {
    const { server, decider } = banditService({ requestTimeoutMs: 300 });
    const port = await server.listen();
    decider.hang = true;
    const response = await fetch(`http://127.0.0.1:${port}/decide`, { method: 'POST', body: '{"context": [1, 2]}' });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({ error: { kind: 'io', retriable: true } });
    decider.hang = false;
    expect((await fetch(`http://127.0.0.1:${port}/decide`, { method: 'POST', body: '{"context": [1, 2]}' })).status).toBe(200);
  });

  it('counts every request of the metrics server by route and status', async () => {
    const { server, metrics } = metricsServer();
    const port = await server.listen();
    await fetch(`http://127.0.0.1:${port}/healthz`);
    await fetch(`http://127.0.0.1:${port}/nope`);
    await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' });
    await rawRequest(port, `GET /healthz HTTP/1.1\r\nHost: attacker.example\r\n\r\n`);
    await rawRequest(port, 'NOT A REQUEST\r\n\r\n');
    const samples = parsePrometheusText(await metrics.metrics());
    expect(sampleValue(samples, 'vbstream_http_requests_total', { route: '/healthz', status: '200' })).toBe(1);
    expect(sampleValue(samples, 'vbstream_http_requests_total', { route: 'other', status: '404' })).toBe(1);
    expect(sampleValue(samples, 'vbstream_http_requests_total', { route: '/metrics', status: '405' })).toBe(1);
    expect(sampleValue(samples, 'vbstream_http_requests_total', { route: 'other', status: '421' })).toBe(1);
    expect(sampleValue(samples, 'vbstream_http_requests_total', { route: 'other', status: '400' })).toBe(1);
  });
});

describe('HttpEdge: the boundary a service plugs its routes into', () => {
  it('is exported from vbstream/monitoring, as the guide shows it', async () => {
    const monitoring = await import('vbstream/monitoring');
    expect((monitoring as { HttpEdge?: unknown }).HttpEdge).toBe(HttpEdge);
  });

  const edges: HttpEdge[] = [];
  afterEach(async () => {
    await Promise.all(edges.splice(0).map((e) => e.close()));
  });
  const edge = (routes: HttpEdgeOptions['routes'], options: Partial<HttpEdgeOptions> = {}): HttpEdge => {
    const made = new HttpEdge({ port: 0, routes, errors: 'json', ...options });
    edges.push(made);
    return made;
  };

  it('ends a response that fails after its headers went out, and keeps serving', async () => {
    const port = await edge({
      '/stream': { methods: ['GET'], handle: async ({ response }) => { response.writeHead(200, { 'content-type': 'text/plain' }); response.write('partial'); throw new Error('lost the source'); } },
      '/ok': { methods: ['GET'], handle: () => ({ status: 200, body: { ok: true } }) },
    }).listen();
    const socket = await openSocket(port);
    const closed = once(socket, 'close');
    let text = '';
    socket.on('data', (chunk: Buffer) => { text += chunk.toString('latin1'); });
    socket.write(`GET /stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await closed;
    expect(text).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*partial/);
    expect(text).not.toMatch(/0\r\n\r\n$/); // not ended as if complete
    expect(await (await fetch(`http://127.0.0.1:${port}/ok`)).json()).toEqual({ ok: true });
  });

  it('counts every request once by route and status, refusals and client errors included', async () => {
    const counted: string[] = [];
    const port = await edge({ '/a': { methods: ['GET'], handle: () => ({ status: 204, body: '' }) } }, { requests: { recordRequest: (route, status) => counted.push(`${route} ${status}`) } }).listen();
    await fetch(`http://127.0.0.1:${port}/a`);
    await fetch(`http://127.0.0.1:${port}/a`, { method: 'DELETE' });
    await fetch(`http://127.0.0.1:${port}/b`);
    await rawRequest(port, 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n');
    await rawRequest(port, 'GET /a HTTP/1.1\r\n\r\n');
    await rawRequest(port, '\u0001\u0002\r\n\r\n');
    expect(counted).toEqual(['/a 204', '/a 405', 'other 404', 'other 405', 'other 400', 'other 400']);
  });

  it('answers a route that neither replies nor writes 500, and close() waits for the requests in flight', async () => {
    let release: (() => void) | undefined;
    const served = edge({
      '/nothing': { methods: ['GET'], handle: () => undefined },
      '/slow': { methods: ['GET'], handle: () => new Promise((resolve) => { release = () => resolve({ status: 200, body: 'done' }); }) },
    });
    const port = await served.listen();
    const nothing = await fetch(`http://127.0.0.1:${port}/nothing`);
    expect([nothing.status, ((await nothing.json()) as { error: { kind: string; message: string } }).error]).toEqual([500, { kind: 'internal', message: 'GET /nothing wrote no answer', retriable: false }]);
    const slow = rawRequest(port, `GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await vi.waitFor(() => expect(release).not.toBe(undefined));
    let closed = false;
    const closing = served.close().then(() => { closed = true; });
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    release!();
    expect((await slow).status).toBe(200);
    await closing;
  });

  it('answers a JSON route from its body: at once, in pieces, slow (408), bad (400), failing (500) or late (503, retriable)', async () => {
    const counted: string[] = [];
    let release: (() => void) | undefined;
    const port = await edge({
      '/echo': { methods: ['POST'], answer: (body) => ({ status: 200, body }) },
      '/throw': { methods: ['POST'], answer: () => { throw new Error('the route broke'); } },
      '/later': { methods: ['POST'], answer: (body) => new Promise((resolve) => { release = () => resolve({ status: 200, body }); }) },
      '/never': { methods: ['POST'], answer: () => new Promise(() => undefined) },
    }, { bodyTimeoutMs: 300, requestTimeoutMs: 300, requests: { recordRequest: (route, status) => counted.push(`${route} ${status}`) } }).listen();
    const post = (path: string, body: string): Promise<Response> => fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    const whole = await post('/echo', '{"x": [1, 2]}');
    expect([whole.status, await whole.json()]).toEqual([200, { x: [1, 2] }]);

    const socket = await openSocket(port);
    const pieces = readAnswer(socket);
    socket.write(`POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 13\r\nConnection: close\r\n\r\n{"x": `);
    await new Promise((resolve) => setImmediate(resolve));
    socket.write('[3, 4]}');
    const answered = await pieces;
    expect([answered.status, JSON.parse(answered.text.slice(answered.text.indexOf('\r\n\r\n') + 4))]).toEqual([200, { x: [3, 4] }]);

    const slowSocket = await openSocket(port);
    const slow = readAnswer(slowSocket);
    slowSocket.write(`POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n`); // no byte of the body ever comes
    expect((await slow).status).toBe(408);

    const bad = await post('/echo', '[1]');
    expect([bad.status, ((await bad.json()) as { error: { location: unknown } }).error.location]).toEqual([400, { field: 'body' }]);
    const broken = await post('/throw', '{}');
    expect([broken.status, ((await broken.json()) as { error: { message: string } }).error.message]).toEqual([500, 'the route broke']);
    const never = await post('/never', '{}');
    expect([never.status, never.headers.get('retry-after')]).toEqual([503, '1']);
    const later = post('/later', '{"y": 1}');
    await vi.waitFor(() => expect(release).not.toBe(undefined));
    release!();
    expect(await (await later).json()).toEqual({ y: 1 });
    expect(counted).toEqual(['/echo 200', '/echo 200', '/echo 408', '/echo 400', '/throw 500', '/never 503', '/later 200']);
  });

  it('reads JSON bodies pipelined on one connection and chunked, refuses a chunked body over the limit 413 and a body its client left 400, and closes without waiting for it', async () => {
    const counted: string[] = [];
    const served = edge({ '/echo': { methods: ['POST'], answer: (body) => ({ status: 200, body }) } }, { maxBodyBytes: 64, requests: { recordRequest: (route, status) => counted.push(`${route} ${status}`) } });
    const port = await served.listen();
    const request = (body: string, close = false): string => `POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${body.length}\r\n${close ? 'Connection: close\r\n' : ''}\r\n${body}`;
    const connection = await openSocket(port);
    let pipelined = '';
    connection.on('data', (chunk: Buffer) => { pipelined += chunk.toString('latin1'); });
    const ended = once(connection, 'close');
    connection.write(request('{"a":1}') + request('{"b":2}') + request('{"c":3}', true)); // the last asks the server to close
    await ended;
    expect([...pipelined.matchAll(/\r\n\r\n(\{[^}]*\})/g)].map((m) => m[1])).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    const chunked = (body: string): string => `POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const small = await rawRequest(port, chunked('{"d":4}'));
    expect([small.status, small.text.slice(small.text.indexOf('\r\n\r\n') + 4)]).toEqual([200, '{"d":4}']);
    const large = await rawRequest(port, chunked(`{"e":"${'e'.repeat(100)}"}`));
    expect([large.status, /\r\nconnection: close\r\n/i.test(large.text)]).toEqual([413, true]);

    expect(counted).toEqual(['/echo 200', '/echo 200', '/echo 200', '/echo 200', '/echo 413']);

    let arrived = 0;
    const host = createServer((incoming, response) => {
      arrived++;
      void served.handle(incoming, response);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    const socket = await openSocket((host.address() as AddressInfo).port);
    socket.write(`POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 50\r\n\r\n{"f": `);
    await waitFor(() => arrived === 1, 'the request whose body is still coming');
    socket.destroy();
    await waitFor(() => counted.length === 6, () => `the left request counted (${counted.join(', ')})`);
    expect(counted[5]).toBe('/echo 400');
    await served.close(); // no request left in flight to wait for
    host.close();
  });

  it('refuses limits that are not positive integers', () => {
    expect(() => new HttpEdge({ port: 0, routes: {}, errors: 'text', requestTimeoutMs: 0 })).toThrow(/requestTimeoutMs must be a positive integer/);
  });
});

describe('HostAllowList', () => {
  it('allows the bound host, localhost, IP addresses and the listed names, case and port aside', () => {
    const list = new HostAllowList('127.0.0.1', ['Metrics.Internal']);
    for (const host of ['127.0.0.1:9464', 'localhost', 'LOCALHOST:1', 'metrics.internal:80', '10.1.2.3', '[::1]:9464', '[fe80::1]', undefined]) expect(list.allows(host), String(host)).toBe(true);
    for (const host of ['attacker.example', 'localhost.attacker.example', '127.0.0.1.nip.io', '', 'metrics.internal.evil']) expect(list.allows(host), host).toBe(false);
    expect(new HostAllowList('::1').allows('[::1]')).toBe(true);
    expect(new HostAllowList('decide.local').allows('decide.local:8080')).toBe(true);
    expect(new HostAllowList('0.0.0.0').allows(hostname())).toBe(true);
    expect(new HostAllowList('0.0.0.0', ['*']).allows('anything.example')).toBe(true);
  });
});
