import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpEdge, type HttpServiceOptions } from '../../monitoring/http-edge.js';
import { InputError } from '../../src/core/input-error.js';
import type { BanditMetrics } from './bandit-metrics.js';
import type { LoggedDecision } from './logged-decision.js';

/** What {@link BanditHttpService} serves from: a {@link BanditDecider} (or a stand-in in tests). */
export interface DecisionMaker {
  readonly instanceId: string;
  readonly ready: boolean;
  readonly policyRewards: number;
  readonly policyVersion: number;
  /** What keeps the decisions and rewards from being written (the brokers refuse or do not answer), or undefined while they are. */
  readonly brokerProblem?: string;
  decide(context: ArrayLike<number>): Promise<LoggedDecision>;
  reward(decisionId: unknown, reward: unknown): Promise<void>;
}

/** Options of {@link BanditHttpService}: where it listens, the hosts it answers to and its limits (`HttpServiceOptions`; port default 8080). */
export interface BanditHttpServiceOptions extends HttpServiceOptions {
  readonly decider: DecisionMaker;
  /** The Prometheus text of `GET /metrics` (e.g. a `PipelineMetrics`). */
  readonly exposition: { metrics(): Promise<string>; readonly contentType: string };
  /** Counts requests by route and status. */
  readonly metrics?: BanditMetrics;
}

/**
 * The decide service over HTTP, on the `HttpEdge` (JSON bodies; one error boundary, limits,
 * deadlines, a `Host` allow-list):
 * - `POST /decide` `{"context": [x₁, …, x_d]}` → 200 `{decisionId, arm, propensity, propensityMethod,
 *   scores, decidedAt, instance, policyRewards, policyVersion}`, answered once the decision is logged
 *   to the decisions topic; 503 (retriable) before the first policy is loaded.
 * - `POST /reward` `{"decisionId": "…", "reward": r}` → 202 `{decisionId, reward}`, answered once the
 *   reward is on the rewards topic (so a client needs no Kafka client). Whether the decision exists
 *   is the learner's to tell: unknown, duplicate and late rewards go to its dead-letter topic.
 * - `GET /metrics` (Prometheus text), `GET /health` (200 `{status: "ok", …}` once a policy is
 *   loaded and the brokers take the writes; else 503 `{status: "no-policy"}`, or `{status:
 *   "broker-unavailable", problem}` while the decider's writes fail or hang).
 *
 * Bad input answers 400 with `{"error": {kind, message, reason, location, retriable}}` — kind
 * `input` or `shape`, the location naming the field (`context`, `context[3]`, `reward`, `body`, …); a
 * body over `maxBodyBytes` 413; an unknown path 404, a wrong method 405. A retriable failure (no
 * policy yet, a broker that refuses or does not answer the write, no answer within
 * `requestTimeoutMs`) answers 503 with `Retry-After`; no request can stop the service: an
 * unexpected failure answers 500 with its message. Stateless: any number may run behind a load
 * balancer, each with its own {@link BanditDecider}.
 */
export class BanditHttpService {
  private readonly edge: HttpEdge;

  constructor(options: BanditHttpServiceOptions) {
    const { decider } = options;
    this.edge = new HttpEdge({
      ...options, port: options.port ?? 8080, errors: 'json', requests: options.metrics,
      routes: {
        '/decide': {
          methods: ['POST'],
          handle: async (exchange) => {
            const decision = await decider.decide(contextOf(await exchange.json()));
            return { status: 200, body: { ...decision, policyVersion: decider.policyVersion } };
          },
        },
        '/reward': {
          methods: ['POST'],
          handle: async (exchange) => {
            const { decisionId, reward } = await exchange.json();
            await decider.reward(decisionId, reward);
            return { status: 202, body: { decisionId, reward: reward === true ? 1 : reward === false ? 0 : reward } };
          },
        },
        '/metrics': { methods: ['GET'], handle: async () => ({ status: 200, body: await options.exposition.metrics(), contentType: options.exposition.contentType }) },
        '/health': {
          methods: ['GET'],
          handle: () => {
            const problem = decider.ready ? decider.brokerProblem : undefined;
            const status = !decider.ready ? 'no-policy' : problem === undefined ? 'ok' : 'broker-unavailable';
            const state = { instance: decider.instanceId, policyRewards: decider.policyRewards, policyVersion: decider.policyVersion };
            return { status: status === 'ok' ? 200 : 503, body: problem === undefined ? { status, ...state } : { status, problem, ...state } };
          },
        },
      },
    });
  }

  /** Starts listening; resolves to the port (the chosen one when 0 was asked for). */
  listen(): Promise<number> {
    return this.edge.listen();
  }

  /** Stops accepting connections, lets the requests in flight be answered (within their deadline) and closes the connections. */
  close(): Promise<void> {
    return this.edge.close();
  }

  /** Answers one request (e.g. from a server of the caller's); never rejects. */
  handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    return this.edge.handle(request, response);
  }
}

/** The `context` of a decide body: an array of numbers (the policy checks its length). */
function contextOf(body: { readonly [key: string]: unknown }): number[] {
  const context = body.context;
  if (!Array.isArray(context)) throw new InputError('context must be an array of numbers', { field: 'context', value: context });
  for (let i = 0; i < context.length; i++) if (typeof context[i] !== 'number') throw new InputError(`context[${i}] must be a number`, { field: `context[${i}]`, value: context[i] });
  return context as number[];
}
