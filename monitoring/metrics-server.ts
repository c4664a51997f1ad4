import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LiveView } from './live-view.js';
import type { PipelineMetrics } from './pipeline-metrics.js';
import type { Readiness } from './readiness.js';

/** Options of `MetricsServer`. */
export interface MetricsServerOptions {
  readonly metrics: PipelineMetrics;
  readonly readiness: Readiness;
  /** Interface to listen on; default 127.0.0.1. */
  readonly host?: string;
  /** Port; 0 picks a free one. Default 9464. */
  readonly port?: number;
  /** The live page (`/`, `/live/…`, `/events`) served beside the metrics. */
  readonly live?: LiveView;
}

/**
 * The monitoring HTTP endpoint (`node:http`): `GET /metrics` (Prometheus text format),
 * `GET /healthz` (liveness: 200 while the process serves requests), `GET /readyz` (200 once
 * every readiness condition holds, else 503 naming the pending ones) and, with `live`, the live
 * page at `/` with its event stream `/events`. Other paths answer 404, other methods 405.
 */
export class MetricsServer {
  private readonly server: Server;
  private readonly host: string;
  private readonly requestedPort: number;

  constructor(private readonly options: MetricsServerOptions) {
    this.host = options.host ?? '127.0.0.1';
    this.requestedPort = options.port ?? 9464;
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        response.end(`metrics failed: ${error instanceof Error ? error.message : String(error)}\n`);
      });
    });
  }

  /** Starts listening; resolves to the port (the chosen one when 0 was asked for). */
  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.requestedPort, this.host, () => {
        this.server.off('error', reject);
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  /** Stops accepting connections and closes the open ones. */
  close(): Promise<void> {
    this.options.live?.close();
    return new Promise((resolve, reject) => {
      this.server.close((error) => (error ? reject(error) : resolve()));
      this.server.closeAllConnections();
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const text = (status: number, body: string, headers: Record<string, string> = {}): void => {
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    const live = this.options.live?.serves(path) === true ? this.options.live : undefined;
    if (path !== '/metrics' && path !== '/healthz' && path !== '/readyz' && live === undefined) return text(404, `not found: try /metrics, /healthz or /readyz${this.options.live === undefined ? '' : ', or the live view at /'}\n`);
    if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'method not allowed\n', { allow: 'GET, HEAD' });
    if (live !== undefined) return live.handle(request, response, path);
    if (path === '/healthz') return text(200, 'ok\n');
    if (path === '/readyz') {
      const pending = this.options.readiness.explain();
      return pending.length === 0 ? text(200, 'ready\n') : text(503, `not ready: ${pending.join(', ')}\n`);
    }
    const body = await this.options.metrics.metrics();
    response.writeHead(200, { 'content-type': this.options.metrics.contentType });
    response.end(request.method === 'HEAD' ? undefined : body);
  }
}
