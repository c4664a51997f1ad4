import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InputError } from '../../src/core/input-error.js';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import type { BanditMetrics } from './bandit-metrics.js';
import type { LoggedDecision } from './logged-decision.js';

/** What {@link BanditHttpService} serves from: a {@link BanditDecider} (or a stand-in in tests). */
export interface DecisionMaker {
  readonly instanceId: string;
  readonly ready: boolean;
  readonly policyRewards: number;
  readonly policyVersion: number;
  decide(context: ArrayLike<number>): Promise<LoggedDecision>;
  reward(decisionId: unknown, reward: unknown): Promise<void>;
}

/** Options of {@link BanditHttpService}. */
export interface BanditHttpServiceOptions {
  readonly decider: DecisionMaker;
  /** The Prometheus text of `GET /metrics` (e.g. a `PipelineMetrics`). */
  readonly exposition: { metrics(): Promise<string>; readonly contentType: string };
  /** Counts requests by route and status. */
  readonly metrics?: BanditMetrics;
  /** Interface to listen on; default 127.0.0.1. */
  readonly host?: string;
  /** Port; 0 picks a free one. Default 8080. */
  readonly port?: number;
  /** Largest request body, bytes (default 65,536): a larger one is answered 413 unread. */
  readonly maxBodyBytes?: number;
}

const ROUTES: { readonly [path: string]: string } = { '/decide': 'POST', '/reward': 'POST', '/metrics': 'GET', '/health': 'GET' };

/** A request refused with an HTTP status and a typed error. */
class Refusal extends Error {
  constructor(readonly status: number, readonly error: VbstreamError) {
    super(error.message);
  }
}

/**
 * The decide service over HTTP (`node:http`, JSON bodies):
 * - `POST /decide` `{"context": [x₁, …, x_d]}` → 200 `{decisionId, arm, propensity, propensityMethod,
 *   scores, decidedAt, instance, policyRewards, policyVersion}`, answered once the decision is logged
 *   to the decisions topic; 503 (retriable) before the first policy is loaded.
 * - `POST /reward` `{"decisionId": "…", "reward": r}` → 202 `{decisionId, reward}`, answered once the
 *   reward is on the rewards topic (so a client needs no Kafka client). Whether the decision exists
 *   is the learner's to tell: unknown, duplicate and late rewards go to its dead-letter topic.
 * - `GET /metrics` (Prometheus text), `GET /health` (200 `{status: "ok", …}` once a policy is
 *   loaded, else 503 `{status: "no-policy"}`).
 *
 * Bad input answers 400 with `{"error": {kind, message, reason, location, retriable}}` — kind
 * `input` or `shape`, the location naming the field (`context`, `context[3]`, `reward`, …); a body
 * over `maxBodyBytes` 413; an unknown path 404, a wrong method 405. A retriable failure (no policy
 * yet, a broker error the client marks retriable) answers 503; no request can stop the service: an
 * unexpected failure answers 500 with its message. Stateless: any number may run behind a load
 * balancer, each with its own {@link BanditDecider}.
 */
export class BanditHttpService {
  private readonly server: Server;
  private readonly maxBodyBytes: number;

  constructor(private readonly options: BanditHttpServiceOptions) {
    this.maxBodyBytes = options.maxBodyBytes ?? 65_536;
    this.server = createServer((request, response) => {
      void this.handle(request, response);
    });
  }

  /** Starts listening; resolves to the port (the chosen one when 0 was asked for). */
  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port ?? 8080, this.options.host ?? '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  /** Stops accepting connections, lets the requests in flight finish and closes idle connections. */
  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.close((error) => (error ? reject(error) : resolve()));
      this.server.closeIdleConnections();
    });
  }

  /** Answers one request; never throws. */
  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const route = ROUTES[path] === undefined ? 'other' : path;
    let status: number;
    try {
      status = await this.route(path, request, response);
    } catch (error) {
      const retriable = error instanceof VbstreamError ? error.retriable : (error as { retriable?: unknown } | undefined)?.retriable === true;
      status = error instanceof Refusal ? error.status : retriable ? 503 : error instanceof VbstreamError && (error.kind === 'input' || error.kind === 'shape') ? 400 : 500;
      const typed = error instanceof Refusal ? error.error : error instanceof VbstreamError ? error : undefined;
      const body = typed === undefined
        ? { error: { kind: retriable ? 'io' : 'internal', message: error instanceof Error ? error.message : String(error), retriable } }
        : { error: { kind: typed.kind, message: typed.message, reason: typed.reason, location: typed.location, retriable: typed.retriable } };
      if (!response.headersSent) this.json(response, status, body, status === 413 ? { connection: 'close' } : {});
      else response.end();
    }
    this.options.metrics?.recordRequest(route, status);
  }

  private async route(path: string, request: IncomingMessage, response: ServerResponse): Promise<number> {
    const method = ROUTES[path];
    if (method === undefined) throw new Refusal(404, new InputError(`no route ${path}: POST /decide, POST /reward, GET /metrics, GET /health`, { field: 'path', value: path }));
    if (request.method !== method) {
      response.setHeader('allow', method);
      throw new Refusal(405, new InputError(`${path} takes ${method}, not ${request.method}`, { field: 'method', value: request.method }));
    }
    const { decider } = this.options;
    if (path === '/health') {
      const status = decider.ready ? 200 : 503;
      return this.json(response, status, { status: decider.ready ? 'ok' : 'no-policy', instance: decider.instanceId, policyRewards: decider.policyRewards, policyVersion: decider.policyVersion });
    }
    if (path === '/metrics') {
      const text = await this.options.exposition.metrics();
      response.writeHead(200, { 'content-type': this.options.exposition.contentType });
      response.end(text);
      return 200;
    }
    const body = await this.body(request);
    if (path === '/decide') {
      const decision = await decider.decide(contextOf(body));
      return this.json(response, 200, { ...decision, policyVersion: decider.policyVersion });
    }
    const { decisionId, reward } = body as { decisionId?: unknown; reward?: unknown };
    await decider.reward(decisionId, reward);
    return this.json(response, 202, { decisionId, reward: reward === true ? 1 : reward === false ? 0 : reward });
  }

  /** The request body as a JSON object, at most `maxBodyBytes`. */
  private async body(request: IncomingMessage): Promise<{ readonly [key: string]: unknown }> {
    const tooLarge = (): Refusal => new Refusal(413, new InputError(`the request body exceeds ${this.maxBodyBytes} bytes`, { field: 'body' }));
    if (Number(request.headers['content-length'] ?? 0) > this.maxBodyBytes) {
      request.resume();
      throw tooLarge();
    }
    const text = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const onData = (chunk: Buffer): void => {
        size += chunk.length;
        if (size <= this.maxBodyBytes) chunks.push(chunk);
        else {
          request.off('data', onData).resume(); // the rest is read and dropped; the 413 goes out now
          reject(tooLarge());
        }
      };
      request.on('data', onData);
      request.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      request.once('error', reject);
    });
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new InputError(`the body is not valid JSON: ${(error as Error).message}`, { field: 'body' });
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InputError('the body must be a JSON object', { field: 'body' });
    return value as { readonly [key: string]: unknown };
  }

  private json(response: ServerResponse, status: number, body: unknown, headers: { readonly [name: string]: string } = {}): number {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    response.end(JSON.stringify(body));
    return status;
  }
}

/** The `context` of a decide body: an array of numbers (the policy checks its length). */
function contextOf(body: { readonly [key: string]: unknown }): number[] {
  const context = body.context;
  if (!Array.isArray(context)) throw new InputError('context must be an array of numbers', { field: 'context', value: context });
  for (let i = 0; i < context.length; i++) if (typeof context[i] !== 'number') throw new InputError(`context[${i}] must be a number`, { field: `context[${i}]`, value: context[i] });
  return context as number[];
}
