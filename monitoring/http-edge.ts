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
  readonly routes: { readonly [path: string]: HttpRoute | HttpJsonRoute };
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

/**
 * A path that answers from its request's JSON body, which the edge reads first within the limits
 * {@link HttpExchange.json} keeps. A reply returned at once is written at once, with no request
 * deadline to keep (synchronous work cannot outlive one); a promise is raced against the request
 * deadline as {@link HttpRoute.handle}'s is.
 */
export interface HttpJsonRoute {
  /** Methods it takes; another is answered 405 with `Allow`. */
  readonly methods: readonly string[];
  answer(body: JsonBody, request: IncomingMessage): Promise<HttpReply> | HttpReply;
}

/** A request body read as a JSON object. */
export type JsonBody = { readonly [key: string]: unknown };

/** A request as a route sees it. */
export interface HttpExchange {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly path: string;
  /** The body as a JSON object, read within the edge's limits (413 over `maxBodyBytes`, 408 past `bodyTimeoutMs`, 400 naming `body` when it is not JSON, nests deeper than `maxJsonDepth` or is not an object). */
  json(): Promise<JsonBody>;
}

/** What a route answers. */
export interface HttpReply {
  readonly status: number;
  /** A string or Buffer is sent as it is (default type text/plain), anything else as JSON. */
  readonly body: unknown;
  readonly contentType?: string;
  readonly headers?: { readonly [name: string]: string };
}

/** Told a request's body as a JSON object, or why there is none. */
type BodyDone = (error: unknown, body?: JsonBody) => void;

/** Seconds a 503 tells its client to wait before trying again. */
const RETRY_AFTER_SECONDS = '1';

/** A request the edge refuses: the status, the typed error the client reads and headers to add. */
class Refusal extends Error {
  constructor(readonly status: number, readonly error: VbstreamError, readonly headers: { readonly [name: string]: string } = {}) {
    super(error.message);
  }
}

/** A request's deadline (`requestTimeoutMs`): while armed, its expiry rejects `expired` with a retriable 503 refusal, unless the answer has begun. */
class RequestDeadline {
  readonly expired: Promise<never>;
  private expire: (refusal: Refusal) => void = () => undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly response: ServerResponse, private readonly ms: number, private readonly what: string) {
    this.expired = new Promise<never>((_, reject) => { this.expire = reject; });
    this.expired.catch(() => undefined);
  }

  arm(): void {
    this.timer = setTimeout(() => {
      if (!this.response.headersSent) this.expire(new Refusal(503, new VbstreamError('io', `${this.what} did not finish within ${this.ms} ms`, {}, true), { 'retry-after': RETRY_AFTER_SECONDS }));
    }, this.ms);
  }

  disarm(): void {
    clearTimeout(this.timer);
  }
}

/** Where a socket keeps the response in progress on it: a client error on it (garbage after a request) is answered after that response once it has begun. */
const ANSWERING: unique symbol = Symbol('answering');
type AnsweringSocket = Duplex & { [ANSWERING]?: ServerResponse };

const isPromiseLike = <T>(value: unknown): value is PromiseLike<T> => typeof (value as PromiseLike<T> | undefined)?.then === 'function';

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
 *   deadline on a route's asynchronous work (503, retriable, with `Retry-After`; the work goes on
 *   but its answer is dropped; a reply returned at once needs none) and a cap on open connections
 *   (one more is closed unanswered).
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
  /** The last `Host` header allowed: the next request of a client usually names the same. */
  private admittedHost: string | undefined;
  private inflight = 0;
  /** Requests whose body is read at the end of this turn of the event loop ({@link readJson}). */
  private bodyReads: { readonly request: IncomingMessage; readonly arrived: number; readonly done: BodyDone }[] = [];
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
      this.serve(request, response);
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
      const current = (socket as AnsweringSocket)[ANSWERING];
      if (current?.headersSent === true && !current.writableFinished) current.once('close', answer); // after the answer under way (its request parsed, garbage after it)
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

  /** Answers one request inside the error boundary; resolves once it is answered, never rejects. */
  handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    return new Promise((resolve) => this.serve(request, response, resolve));
  }

  /**
   * Answers one request inside the error boundary and then calls `done`. A reply a route returns
   * at once (a JSON route's once its body is in) is written in the same turn: no promise, no timer.
   */
  private serve(request: IncomingMessage, response: ServerResponse, done?: () => void): void {
    const arrived = performance.now();
    let route = 'other';
    this.inflight++;
    (request.socket as AnsweringSocket)[ANSWERING] = response;
    const finish = (): void => {
      this.options.requests?.recordRequest(route, response.statusCode, (performance.now() - arrived) / 1000);
      if (--this.inflight === 0) for (const wake of this.drained.splice(0)) wake();
      done?.();
    };
    let found: HttpRoute | HttpJsonRoute | undefined;
    let path: string;
    try {
      path = this.admit(request);
      found = Object.hasOwn(this.options.routes, path) ? this.options.routes[path] : undefined;
      if (found === undefined) throw new Refusal(404, new InputError(`no route ${path}: ${this.index}`, { field: 'path', value: path }));
      route = path;
      const method = request.method ?? '';
      if (!found.methods.includes(method)) {
        throw new Refusal(405, new InputError(`${path} takes ${found.methods.join(' or ')}, not ${method}`, { field: 'method', value: method }), { allow: found.methods.join(', ') });
      }
    } catch (error) {
      this.fail(request, response, error);
      finish();
      return;
    }
    if ('answer' in found) {
      const json = found;
      this.readJson(request, arrived, (error, body) => {
        if (error !== undefined) {
          this.fail(request, response, error);
          finish();
          return;
        }
        let outcome: Promise<HttpReply> | HttpReply;
        try {
          outcome = json.answer(body!, request);
        } catch (failure) {
          this.fail(request, response, failure);
          finish();
          return;
        }
        this.settle(request, response, outcome, undefined, finish);
      });
      return;
    }
    const deadline = new RequestDeadline(response, this.limits.requestTimeoutMs, `${request.method} ${path}`);
    let body: Promise<JsonBody> | undefined;
    const exchange: HttpExchange = {
      request, response, path,
      json: () => body ??= new Promise<JsonBody>((resolve, reject) => {
        deadline.disarm();
        this.readJson(request, arrived, (error, value) => {
          deadline.arm();
          if (error === undefined) resolve(value!);
          else reject(error);
        });
      }),
    };
    let outcome: Promise<HttpReply | undefined> | HttpReply | undefined;
    try {
      outcome = found.handle(exchange);
    } catch (error) {
      this.fail(request, response, error);
      finish();
      return;
    }
    // A route that reads its body has its deadline armed once the body is in; any other that answers later, now.
    if (body === undefined && isPromiseLike(outcome)) deadline.arm();
    this.settle(request, response, outcome, deadline, finish);
  }

  /** Writes a route's reply: at once when it is one, else once its promise settles within the request deadline (armed here unless given); then `finish`. */
  private settle(request: IncomingMessage, response: ServerResponse, outcome: PromiseLike<HttpReply | undefined> | HttpReply | undefined, armed: RequestDeadline | undefined, finish: () => void): void {
    if (!isPromiseLike(outcome)) {
      this.write(request, response, outcome);
      finish();
      return;
    }
    const deadline = armed ?? new RequestDeadline(response, this.limits.requestTimeoutMs, `${request.method} ${pathOf(request.url)}`);
    if (armed === undefined) deadline.arm();
    const handled = Promise.resolve(outcome);
    handled.catch(() => undefined); // after the deadline its answer (or failure) is dropped
    void Promise.race([handled, deadline.expired]).then((reply) => this.write(request, response, reply), (error: unknown) => this.fail(request, response, error)).finally(() => {
      deadline.disarm();
      finish();
    });
  }

  /** Writes `reply`, or fails the request when there is none and the route wrote nothing itself. */
  private write(request: IncomingMessage, response: ServerResponse, reply: HttpReply | undefined): void {
    try {
      if (reply !== undefined) this.reply(request, response, reply);
      else if (!response.headersSent) throw new Error(`${request.method} ${pathOf(request.url)} wrote no answer`);
    } catch (error) {
      this.fail(request, response, error);
    }
  }

  /** Answers a failure inside the boundary; after the headers went out, what was written goes out and the connection ends (the client sees a truncated answer). */
  private fail(request: IncomingMessage, response: ServerResponse, error: unknown): void {
    if (response.headersSent) request.socket.destroySoon();
    else this.refuse(request, response, error);
  }

  /** The path of a request the service may answer: refuses a missing or foreign `Host` and a target that is not a path. */
  private admit(request: IncomingMessage): string {
    const header = request.headers.host;
    if (header === undefined && request.httpVersion !== '1.0') throw new Refusal(400, new InputError('the request has no Host header', { field: 'host' }));
    if (header !== this.admittedHost) {
      if (!this.hosts.allows(header)) {
        const host = HostAllowList.hostOf(header ?? '');
        throw new Refusal(421, new InputError(`host ${JSON.stringify(host)} is not served here: it answers to ${this.hosts}; to serve this name, add it to the service's allowed hosts`, { field: 'host', value: host }));
      }
      this.admittedHost = header;
    }
    const path = pathOf(request.url);
    if (path === undefined) throw new Refusal(400, new InputError('the request target must be a path (/…)', { field: 'target', value: request.url }));
    return path;
  }

  /**
   * Reads the body as a JSON object within the limits and tells `done`. Requests are looked at once
   * per turn of the event loop, after the parser has handled the bytes that came with their headers
   * (one `setImmediate` for all of them): a whole body (a small one, usually) is taken from the
   * request in one read, with no listener and no timer; one that is not gets {@link readRest}.
   */
  private readJson(request: IncomingMessage, arrived: number, done: BodyDone): void {
    if (Number(request.headers['content-length'] ?? 0) > this.limits.maxBodyBytes) {
      done(this.tooLarge());
      return;
    }
    if (this.bodyReads.length === 0) setImmediate(this.readBodies);
    this.bodyReads.push({ request, arrived, done });
  }

  /** The bodies of this turn's requests ({@link readJson}). */
  private readonly readBodies = (): void => {
    const reads = this.bodyReads;
    this.bodyReads = [];
    for (const { request, arrived, done } of reads) {
      if (!request.complete) {
        this.readRest(request, arrived, done);
        continue;
      }
      const body = request.read() as Buffer | null;
      if (body !== null && body.length > this.limits.maxBodyBytes) {
        done(this.tooLarge()); // chunked: no length to refuse it by before
        continue;
      }
      let json: JsonBody;
      try {
        json = this.parseJson(body === null ? '' : body.toString('utf8'));
      } catch (failure) {
        done(failure);
        continue;
      }
      done(undefined, json);
    }
  };

  /** Reads a body that was not whole after its first read, with a timer for the rest: 408 past `bodyTimeoutMs` from the request's arrival. */
  private readRest(request: IncomingMessage, arrived: number, done: BodyDone): void {
    const { maxBodyBytes, bodyTimeoutMs } = this.limits;
    let first: Buffer | undefined;
    let more: Buffer[] | undefined;
    let size = 0;
    let settled = false;
    const finish = (error?: Refusal): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.off('data', onData).off('end', onEnd).off('close', onClose);
      if (error !== undefined) {
        done(error);
        return;
      }
      let body: JsonBody;
      try {
        body = this.parseJson(more === undefined ? first?.toString('utf8') ?? '' : Buffer.concat(more).toString('utf8'));
      } catch (failure) {
        done(failure);
        return;
      }
      done(undefined, body);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBodyBytes) finish(this.tooLarge()); // the rest is read and dropped, and the connection closed after the answer
      else if (first === undefined) first = chunk;
      else (more ??= [first]).push(chunk);
    };
    const onEnd = (): void => finish();
    const left = (): Refusal => new Refusal(400, new InputError('the client closed the connection before the body ended', { field: 'body' }));
    const onClose = (): void => finish(left());
    const timer = setTimeout(() => {
      finish(new Refusal(408, new InputError(`the request body did not arrive within ${bodyTimeoutMs} ms`, { field: 'body' }), { connection: 'close' }));
    }, Math.max(0, arrived + bodyTimeoutMs - performance.now()));
    if (request.destroyed) finish(left()); // it closed before this turn: no close event is coming
    else request.on('data', onData).on('end', onEnd).on('close', onClose);
  }

  private tooLarge(): Refusal {
    return new Refusal(413, new InputError(`the request body exceeds ${this.limits.maxBodyBytes} bytes`, { field: 'body' }), { connection: 'close' });
  }

  /** A body's text as a JSON object: 400 naming `body` when it is not JSON, nests deeper than `maxJsonDepth` or is not an object. */
  private parseJson(text: string): JsonBody {
    const { maxJsonDepth } = this.limits;
    // Valid JSON nesting deeper than maxJsonDepth has at least 2 (maxJsonDepth + 1) brackets: a shorter text needs no count.
    if (text.length >= 2 * (maxJsonDepth + 1) && jsonNestingDepth(text, maxJsonDepth) > maxJsonDepth) throw new InputError(`the body nests arrays and objects deeper than ${maxJsonDepth} levels`, { field: 'body' });
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new InputError(`the body is not valid JSON: ${(error as Error).message}`, { field: 'body' });
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InputError('the body must be a JSON object', { field: 'body' });
    return value as JsonBody;
  }

  /** Writes `reply` in one `writeHead` (a flat header list: no header object for Node to copy) and one `end`. */
  private reply(request: IncomingMessage, response: ServerResponse, reply: HttpReply): void {
    const raw = typeof reply.body === 'string' || Buffer.isBuffer(reply.body);
    const body = raw ? reply.body as string | Buffer : JSON.stringify(reply.body);
    const contentType = reply.contentType ?? (raw ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8');
    const headers = ['content-type', contentType, 'content-length', String(Buffer.byteLength(body))];
    if (reply.headers !== undefined) for (const name in reply.headers) headers.push(name, reply.headers[name]);
    response.writeHead(reply.status, headers);
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
