import type { Server } from 'node:http';
import type { Observable, Subscription } from 'rxjs';
import { InputError } from 'vbstream';
import { HttpError } from '../shared/http-error.js';
import { createJsonServer } from '../shared/json-server.js';
import { parseFeatureVector } from '../shared/parse-feature-vector.js';
import type { LoadedSnapshot } from './loaded-snapshot.js';

/** The model version every answer carries. */
export interface ModelVersion {
  readonly family: string;
  readonly dim: number;
  readonly recordsSeen: number;
  readonly createdAt: string;
  readonly sequence: number;
  readonly origin: string;
}

/** One row's answer: the predictive mean (p(y = 1) for a binary label), its variance and a central credible interval. */
export interface RowScore {
  readonly mean: number;
  readonly variance: number;
  readonly interval: readonly [number, number];
}

/** Options of {@link ScoringService}. */
export interface ScoringOptions {
  /** Credible-interval mass (default 0.9). */
  readonly level?: number;
  /** Most rows one request may carry (default 1000). */
  readonly maxRows?: number;
}

/**
 * Scores requests against the latest posterior from any snapshot source. Each snapshot arrives
 * fully restored and replaces the served one by a single reference assignment, so a request is
 * scored entirely by the model it started with and none is dropped during a swap.
 * `score({x: [...]})` or `score({rows: [[...], ...]})` → `{version, level, predictions}`.
 */
export class ScoringService {
  private current: LoadedSnapshot | undefined;
  private readonly subscription: Subscription;
  private readonly level: number;
  private readonly maxRows: number;
  /** Snapshots swapped in so far. */
  swaps = 0;

  constructor(snapshots$: Observable<LoadedSnapshot>, options: ScoringOptions = {}) {
    this.level = options.level ?? 0.9;
    this.maxRows = options.maxRows ?? 1000;
    this.subscription = snapshots$.subscribe((loaded) => {
      this.current = loaded;
      this.swaps++;
    });
  }

  /** The served model's version, or undefined before the first snapshot. */
  version(): ModelVersion | undefined {
    const loaded = this.current;
    if (loaded === undefined) return undefined;
    return { family: loaded.model.family, dim: loaded.model.dim, recordsSeen: loaded.event.recordsSeen, createdAt: loaded.event.createdAt, sequence: loaded.sequence, origin: loaded.origin };
  }

  score(body: unknown): { version: ModelVersion; level: number; predictions: RowScore[] } {
    const loaded = this.current;
    if (loaded === undefined) throw new HttpError(503, 'no snapshot loaded yet');
    const { model } = loaded;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InputError('body must be a JSON object {"x": [...]} or {"rows": [[...], ...]}', { field: 'body' });
    const request = body as { readonly x?: unknown; readonly rows?: unknown };
    let rows: Float64Array[];
    if (request.rows !== undefined) {
      if (!Array.isArray(request.rows) || request.rows.length === 0) throw new InputError('rows must be a non-empty array of feature arrays', { field: 'rows' });
      if (request.rows.length > this.maxRows) throw new InputError(`at most ${this.maxRows} rows per request`, { field: 'rows', value: request.rows.length });
      rows = request.rows.map((row, i) => parseFeatureVector(row, model.dim, `rows[${i}]`));
    } else rows = [parseFeatureVector(request.x, model.dim, 'x')];
    const predictions = rows.map((x): RowScore => {
      const predictive = model.predict(x);
      return { mean: predictive.mean, variance: predictive.variance, interval: predictive.interval(this.level) };
    });
    return { version: this.version()!, level: this.level, predictions };
  }

  /** Stops following the snapshot source. */
  close(): void {
    this.subscription.unsubscribe();
  }
}

/** The service over HTTP: `POST /score`, `GET /version`, `GET /healthz`; bad requests get 400 with a reason. */
export function createScoringServer(service: ScoringService, bodyLimit?: number): Server {
  return createJsonServer({
    bodyLimit,
    routes: {
      'POST /score': (body) => service.score(body),
      'GET /version': () => {
        const version = service.version();
        if (version === undefined) throw new HttpError(503, 'no snapshot loaded yet');
        return version;
      },
      'GET /healthz': () => ({ ok: true, loaded: service.version() !== undefined, swaps: service.swaps }),
    },
  });
}
