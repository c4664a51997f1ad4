import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { ConfigError } from '../src/core/config-error.js';
import { InputError } from '../src/core/input-error.js';
import { VbstreamError, type ErrorLocation } from '../src/core/vbstream-error.js';
import { HostAllowList } from './host-allow-list.js';
import { HTTP_LIMITS, type HttpLimits } from './http-limits.js';
import { jsonNestingDepth } from './json-nesting-depth.js';

/** Where a service on the {@link HttpEdge} listens, the names it answers to and its limits: what its users configure. */
export interface HttpServiceOptions extends Partial<HttpLimits> {
  /** Interface to listen on; default 127.0.0.1. */
  readonly host?: string | undefined;
  /** Port; 0 picks a free one. */
  readonly port?: number | undefined;
  /** Names the service answers to in `Host` besides its defaults ({@link HostAllowList}: the bound host, localhost, IP addresses); `*` for any. */
  readonly allowedHosts?: readonly string[] | undefined;
}

/** A service's routes and how its errors look, on top of its {@link HttpServiceOptions}. */
export interface HttpEdgeOptions extends HttpServiceOptions {
  readonly port: number;
  /** The routes by path (exact match). */
  readonly routes: { readonly [path: string]: HttpRoute };
  /** How refusals and failures are written: `json` as `{"error": {kind, message, reason, location, retriable}}`, `text` as the message on one line. */
  readonly errors: 'json' | 'text';
  /** The routes as a 404 lists them; default each route's first method and path. */
  readonly index?: string;
  /** Told every request's route (its path, or `other` when none matched), status and duration in seconds (from its arrival to its answer). */
  readonly requests?: { recordRequest(route: string, status: number, seconds: number): void };
}

/** One path of a service. */
export interface HttpRoute {
  /** Methods it takes; another is answered 405 with `Allow`. */
  readonly methods: readonly string[];
  /** Answers: returns the reply for the edge to write, or undefined when it wrote the response itself (a file, an event stream). */
  handle(exchange: HttpExchange): Promise<HttpReply | undefined> | HttpReply | undefined;
}

/** A request as a route sees it. */
export interface HttpExchange {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly path: string;
  /** The body as a JSON object, read within the edge's limits (413 over `maxBodyBytes`, 408 past `bodyTimeoutMs`, 400 naming `body` when it is not JSON, nests deeper than `maxJsonDepth` or is not an object). */
  json(): Promise<{ readonly [key: string]: unknown }>;
}

/** What a route answers. */
export interface HttpReply {
  readonly status: number;
  /** A string or Buffer is sent as it is (default type text/plain), anything else as JSON. */
  readonly body: unknown;
  readonly contentType?: string;
  readonly headers?: { readonly [name: string]: string };
}

/** Seconds a 503 tells its client to wait before trying again. */
const RETRY_AFTER_SECONDS = '1';

/** A request the edge refuses: the status, the typed error the client reads and headers to add. */
class Refusal extends Error {
  constructor(readonly status: number, readonly error: VbstreamError, readonly headers: { readonly [name: string]: string } = {}) {
    super(error.message);
  }
}

/** A target of plain segments (letters, digits, `_`, `-`; no dot, escape, query or empty segment): its own path. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_-]+)*\/?$/;

/** The path of an origin-form request target (`/a/b?c`), or undefined for any other form (`*`, `http://…`) or one that does not parse. */
function pathOf(target: string | undefined): string | undefined {
  if (target === undefined || !target.startsWith('/')) return undefined;
  if (PLAIN_PATH.test(target)) return target; // what URL parsing would return unchanged
  try {
    return new URL(`http://edge.invalid${target}`).pathname;
  } catch {
    return undefined;
  }
}

/** What a client reads of a failure: `{"error": problem}` (or the message alone, as text). */
interface Problem {
  readonly kind: string;
  readonly message: string;
  readonly reason?: string;
  readonly location?: ErrorLocation;
  readonly retriable: boolean;
}

/** The answer to a failure: a refusal's own; a retriable error 503 (with `Retry-After`); bad input 400; anything else 500 (kind `internal`). */
function failureOf(error: unknown): { readonly status: number; readonly problem: Problem; readonly headers: { readonly [name: string]: string } } {
  if (error instanceof Refusal) return { status: error.status, problem: problemOf(error.error), headers: error.headers };
  const retriable = error instanceof VbstreamError ? error.retriable : (error as { retriable?: unknown } | undefined)?.retriable === true;
  const headers: { readonly [name: string]: string } = retriable ? { 'retry-after': RETRY_AFTER_SECONDS } : {};
  if (error instanceof VbstreamError) return { status: retriable ? 503 : error.kind === 'input' || error.kind === 'shape' ? 400 : 500, problem: problemOf(error), headers };
  return { status: retriable ? 503 : 500, problem: { kind: retriable ? 'io' : 'internal', message: error instanceof Error ? error.message : String(error), retriable }, headers };
}

function problemOf({ kind, message, reason, location, retriable }: VbstreamError): Problem {
  return { kind, message, reason, location, retriable };
}

/**
 * The one HTTP edge (`node:http`) of every vbstream service — the metrics and live server, the
 * bandit decide service, a scoring service: a service gives its routes, the edge does the rest the
 * same way for all of them.
 * - **One error boundary**: every request is answered inside it, so no request can stop the
 *   service. A typed `VbstreamError` answers 400 (input, shape) or 503 (retriable, with
 *   `Retry-After`), an error a client marks `retriable` (kafkajs's) 503, anything else 500 with its
 *   message; a failure after the headers went out ends the connection rather than leaving it open.
 *   An unparsable request, a bad target (`*`, `http://…`, `//`), an unknown path (404) or method
 *   (405, with `Allow`) and a CONNECT are answered 4xx, never 500.
 * - **Limits** ({@link HttpLimits}, defaults {@link HTTP_LIMITS}): body size (413), JSON depth (400
 *   naming `body`), headers and body deadlines (408, then the connection is closed), a request
 *   deadline (503, retriable, with `Retry-After`; the route's work goes on but its answer is
 *   dropped) and a cap on open connections (one more is closed unanswered).
 * - **Host allow-list** ({@link HostAllowList}): a request naming another host answers 421, so a
 *   DNS-rebinding page cannot read the service.
 * - **Metrics**: every request, refused ones included, is counted by route and status (`requests`).
 */
export class HttpEdge {
  private readonly server: Server;
  private readonly limits: HttpLimits;
  private readonly host: string;
  private readonly hosts: HostAllowList;
  private readonly index: string;
  /** The response in progress on a socket: a client error on it (garbage after a request) is answered after it once it has begun. */
  private readonly answering = new WeakMap<Duplex, ServerResponse>();
  private inflight = 0;
  private drained: (() => void)[] = [];

  constructor(private readonly options: HttpEdgeOptions) {
    const limits: { -readonly [K in keyof HttpLimits]: number } = { ...HTTP_LIMITS };
    for (const key of Object.keys(HTTP_LIMITS) as (keyof HttpLimits)[]) {
      const value = options[key];
      if (value === undefined) continue;
      if (!Number.isInteger(value) || value < 1) throw new ConfigError(`${key} must be a positive integer`, { field: key, value });
      limits[key] = value;
    }
    this.limits = limits;
    this.host = options.host ?? '127.0.0.1';
    this.hosts = new HostAllowList(this.host, options.allowedHosts);
    this.index = options.index ?? Object.entries(options.routes).map(([path, route]) => `${route.methods[0]} ${path}`).join(', ');
    this.server = createServer({
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.headersTimeoutMs + limits.bodyTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(limits.headersTimeoutMs / 4)),
      requireHostHeader: false, // checked in the boundary, so the refusal is counted and typed
    }, (request, response) => {
      void this.handle(request, response);
    });
    this.server.maxConnections = limits.maxConnections;
    this.server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
      if (error.code === 'ECONNRESET' || !socket.writable) {
        socket.destroy();
        return;
      }
      const timeout = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
      const reason = timeout ? `the request did not arrive within ${limits.headersTimeoutMs} ms` : `not an HTTP/1.1 request: ${error.message}`;
      const answer = (): void => this.answerSocket(socket, timeout ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400, new InputError(reason, { field: 'request' }));
      const current = this.answering.get(socket);
      if (current?.headersSent === true) current.once('close', answer); // after the answer under way (its request parsed, garbage after it)
      else answer(); // before a response that has not begun: its request is the bad one
    });
    this.server.on('connect', (request: IncomingMessage, socket: Duplex) => {
      this.answerSocket(socket, 405, new InputError('CONNECT is not served here: this is not a proxy', { field: 'method', value: request.method }));
    });
  }

  /** Starts listening; resolves to the port (the chosen one when 0 was asked for). */
  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port, this.host, () => {
        this.server.off('error', reject);
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  /**
   * Stops accepting connections, closes the idle ones, lets the requests in flight be answered
   * (each within its deadlines) and then closes every connection left (event streams included).
   */
  async close(): Promise<void> {
    if (!this.server.listening) return;
    const closed = new Promise<void>((resolve, reject) => this.server.close((error) => (error ? reject(error) : resolve())));
    this.server.closeIdleConnections();
    if (this.inflight > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
    this.server.closeAllConnections();
    await closed;
  }

  /** Answers one request inside the error boundary; never rejects. */
  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const started = Date.now();
    const arrived = performance.now();
    let route = 'other';
    this.inflight++;
    const { socket } = request;
    this.answering.set(socket, response);
    response.once('close', () => {
      if (this.answering.get(socket) === response) this.answering.delete(socket);
    });
    let timer: NodeJS.Timeout | undefined;
    let expire: (error: Refusal) => void = () => undefined;
    const expired = new Promise<never>((_, reject) => { expire = reject; });
    expired.catch(() => undefined);
    const deadline = {
      arm: (what: string): void => {
        timer = setTimeout(() => {
          if (!response.headersSent) expire(new Refusal(503, new VbstreamError('io', `${what} did not finish within ${this.limits.requestTimeoutMs} ms`, {}, true), { 'retry-after': RETRY_AFTER_SECONDS }));
        }, this.limits.requestTimeoutMs);
      },
      disarm: (): void => clearTimeout(timer),
    };
    try {
      const path = this.admit(request);
      const found = Object.hasOwn(this.options.routes, path) ? this.options.routes[path] : undefined;
      if (found === undefined) throw new Refusal(404, new InputError(`no route ${path}: ${this.index}`, { field: 'path', value: path }));
      route = path;
      const method = request.method ?? '';
      if (!found.methods.includes(method)) {
        throw new Refusal(405, new InputError(`${path} takes ${found.methods.join(' or ')}, not ${method}`, { field: 'method', value: method }), { allow: found.methods.join(', ') });
      }
      const what = `${method} ${path}`;
      let body: Promise<{ readonly [key: string]: unknown }> | undefined;
      const exchange: HttpExchange = {
        request, response, path,
        json: () => body ??= (async () => {
          deadline.disarm();
          try {
            return await this.json(request, started);
          } finally {
            deadline.arm(what);
          }
        })(),
      };
      let handled: Promise<HttpReply | undefined>;
      try {
        handled = Promise.resolve(found.handle(exchange));
      } catch (error) {
        handled = Promise.reject(error);
      }
      // A route that reads its body has its deadline armed once the body is in; any other, now.
      if (body === undefined) deadline.arm(what);
      handled.catch(() => undefined); // after the deadline its answer (or failure) is dropped
      const reply = await Promise.race([handled, expired]);
      if (reply !== undefined) this.reply(request, response, reply);
      else if (!response.headersSent) throw new Error(`${what} wrote no answer`);
    } catch (error) {
      if (response.headersSent) request.socket.destroySoon(); // what was written goes out, then the connection ends: the client sees a truncated answer
      else this.refuse(request, response, error);
    } finally {
      deadline.disarm();
      this.options.requests?.recordRequest(route, response.statusCode, (performance.now() - arrived) / 1000);
      if (--this.inflight === 0) for (const wake of this.drained.splice(0)) wake();
    }
  }

  /** The path of a request the service may answer: refuses a missing or foreign `Host` and a target that is not a path. */
  private admit(request: IncomingMessage): string {
    const header = request.headers.host;
    if (header === undefined && request.httpVersion !== '1.0') throw new Refusal(400, new InputError('the request has no Host header', { field: 'host' }));
    if (!this.hosts.allows(header)) {
      const host = HostAllowList.hostOf(header ?? '');
      throw new Refusal(421, new InputError(`host ${JSON.stringify(host)} is not served here: it answers to ${this.hosts}; to serve this name, add it to the service's allowed hosts`, { field: 'host', value: host }));
    }
    const path = pathOf(request.url);
    if (path === undefined) throw new Refusal(400, new InputError('the request target must be a path (/…)', { field: 'target', value: request.url }));
    return path;
  }

  /** Reads the body as a JSON object within the limits. */
  private async json(request: IncomingMessage, started: number): Promise<{ readonly [key: string]: unknown }> {
    const { maxBodyBytes, bodyTimeoutMs, maxJsonDepth } = this.limits;
    const tooLarge = (): Refusal => new Refusal(413, new InputError(`the request body exceeds ${maxBodyBytes} bytes`, { field: 'body' }), { connection: 'close' });
    if (Number(request.headers['content-length'] ?? 0) > maxBodyBytes) throw tooLarge();
    const text = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (error?: Error): void => {
        clearTimeout(timer);
        request.off('data', onData).off('end', onEnd).off('close', onClose);
        if (error === undefined) resolve(Buffer.concat(chunks).toString('utf8'));
        else reject(error);
      };
      const onData = (chunk: Buffer): void => {
        size += chunk.length;
        if (size <= maxBodyBytes) chunks.push(chunk);
        else finish(tooLarge()); // the rest is read and dropped, and the connection closed after the answer
      };
      const onEnd = (): void => finish();
      const onClose = (): void => finish(new Refusal(400, new InputError('the client closed the connection before the body ended', { field: 'body' })));
      // A body the parser already holds whole (a small one, usually) cannot be late: no deadline to keep.
      const timer = request.complete ? undefined : setTimeout(() => {
        finish(new Refusal(408, new InputError(`the request body did not arrive within ${bodyTimeoutMs} ms`, { field: 'body' }), { connection: 'close' }));
      }, Math.max(0, started + bodyTimeoutMs - Date.now()));
      request.on('data', onData).once('end', onEnd).once('close', onClose);
    });
    if (jsonNestingDepth(text, maxJsonDepth) > maxJsonDepth) throw new InputError(`the body nests arrays and objects deeper than ${maxJsonDepth} levels`, { field: 'body' });
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new InputError(`the body is not valid JSON: ${(error as Error).message}`, { field: 'body' });
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InputError('the body must be a JSON object', { field: 'body' });
    return value as { readonly [key: string]: unknown };
  }

  private reply(request: IncomingMessage, response: ServerResponse, reply: HttpReply): void {
    const raw = typeof reply.body === 'string' || Buffer.isBuffer(reply.body);
    const body = raw ? reply.body as string | Buffer : JSON.stringify(reply.body);
    const contentType = reply.contentType ?? (raw ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8');
    response.writeHead(reply.status, { 'content-type': contentType, 'content-length': String(Buffer.byteLength(body)), ...reply.headers });
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  private refuse(request: IncomingMessage, response: ServerResponse, error: unknown): void {
    const { status, problem, headers } = failureOf(error);
    const [contentType, body] = this.errorBody(problem);
    this.reply(request, response, { status, body, contentType, headers });
  }

  /** The content type and text of a problem, as the service writes errors. */
  private errorBody(problem: Problem): [contentType: string, body: string] {
    return this.options.errors === 'text' ? ['text/plain; charset=utf-8', `${problem.message}\n`] : ['application/json; charset=utf-8', JSON.stringify({ error: problem })];
  }

  /** Answers on the socket itself (no request object exists: a request that did not parse, a CONNECT) and closes it. */
  private answerSocket(socket: Duplex, status: number, error: VbstreamError): void {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const [contentType, body] = this.errorBody(problemOf(error));
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: ${contentType}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    this.options.requests?.recordRequest('other', status, 0);
  }
}
