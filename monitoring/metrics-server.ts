import { HttpEdge, type HttpRoute, type HttpServiceOptions } from './http-edge.js';
import type { LiveView } from './live-view.js';
import type { PipelineMetrics } from './pipeline-metrics.js';
import type { Readiness } from './readiness.js';

/** Options of `MetricsServer`: where it listens, the hosts it answers to and its limits (`HttpServiceOptions`; port default 9464). */
export interface MetricsServerOptions extends HttpServiceOptions {
  readonly metrics: PipelineMetrics;
  readonly readiness: Readiness;
  /** The live page (`/`, `/live/…`, `/events`) served beside the metrics. */
  readonly live?: LiveView | undefined;
}

const GET: readonly string[] = ['GET', 'HEAD'];

/**
 * The monitoring HTTP endpoint, on the `HttpEdge` (one error boundary, limits, a `Host` allow-list):
 * `GET /metrics` (Prometheus text format), `GET /healthz` (liveness: 200 while the process serves
 * requests), `GET /readyz` (200 once every readiness condition holds, else 503 naming the pending
 * ones) and, with `live`, the live page at `/` with its event stream `/events`. Other paths answer
 * 404, other methods 405, refusals as one line of text. Every request is counted in
 * `vbstream_http_requests_total` by route and status.
 */
export class MetricsServer {
  private readonly edge: HttpEdge;

  constructor(private readonly options: MetricsServerOptions) {
    const { metrics, readiness, live } = options;
    const routes: { [path: string]: HttpRoute } = {
      '/metrics': { methods: GET, handle: async () => ({ status: 200, body: await metrics.metrics(), contentType: metrics.contentType }) },
      '/healthz': { methods: GET, handle: () => ({ status: 200, body: 'ok\n' }) },
      '/readyz': {
        methods: GET,
        handle: () => {
          const pending = readiness.explain();
          return pending.length === 0 ? { status: 200, body: 'ready\n' } : { status: 503, body: `not ready: ${pending.join(', ')}\n` };
        },
      },
    };
    for (const path of live?.paths ?? []) {
      routes[path] = { methods: GET, handle: async ({ request, response }) => { await live!.handle(request, response, path); return undefined; } };
    }
    this.edge = new HttpEdge({
      ...options, port: options.port ?? 9464, routes, errors: 'text', requests: metrics,
      index: `try /metrics, /healthz or /readyz${live === undefined ? '' : ', or the live view at /'}`,
    });
  }

  /** Starts listening; resolves to the port (the chosen one when 0 was asked for). */
  listen(): Promise<number> {
    return this.edge.listen();
  }

  /** Ends the live page's event streams, stops accepting connections and closes the open ones once their requests are answered. */
  close(): Promise<void> {
    this.options.live?.close();
    return this.edge.close();
  }
}
