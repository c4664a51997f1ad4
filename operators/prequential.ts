import { Observable, type OperatorFunction } from 'rxjs';
import { ConfigError } from '../src/core/config-error.js';
import { optionChecks } from '../src/core/option-checks.js';
import type { CalibrationBin, PrequentialReport } from './prequential-report.js';
import { operatorObserver } from './operator-observer.js';
import type { UpdateEvent } from './update-event.js';

/**
 * Prequential (test-then-train) evaluation of `learn(model, { evaluate: true })`'s events: each
 * record was scored against the model before it learned it, and this emits, per event, the running
 * log-loss, the Brier score and a `bins`-bin calibration histogram (binary labels) or the squared
 * error (real labels; records whose predictive mean is undefined, as under a vague prior, are
 * left out of it). An event without scores errors the stream with a `ConfigError`.
 */
export function prequential(options: { readonly bins?: number } = {}): OperatorFunction<UpdateEvent, PrequentialReport> {
  const bins = optionChecks.positiveInteger('bins', options.bins, 10);
  return (source) => new Observable<PrequentialReport>((subscriber) => {
    let records = 0;
    let logLoss = 0;
    let brier = 0;
    let squaredError = 0;
    let binary = 0;
    let real = 0;
    const count = new Float64Array(bins);
    const predicted = new Float64Array(bins);
    const observed = new Float64Array(bins);
    return source.subscribe(operatorObserver<UpdateEvent>(subscriber, {
      next(event) {
        const { scores } = event;
        if (scores === undefined) {
          subscriber.error(new ConfigError('prequential() needs the scores of learn(model, { evaluate: true })', { field: 'evaluate' }));
          return;
        }
        const { labels } = event;
        for (let i = 0; i < labels.length; i++) {
          const loss = scores.logLoss[i];
          if (!Number.isFinite(loss)) continue;
          records++;
          logLoss += loss;
          const mean = scores.mean[i];
          if (scores.kind === 'bernoulli') {
            const y = labels[i] === 1 ? 1 : 0;
            binary++;
            brier += (mean - y) ** 2;
            const bin = Math.min(bins - 1, Math.floor(mean * bins));
            count[bin]++;
            predicted[bin] += mean;
            observed[bin] += y;
          } else if (Number.isFinite(mean)) {
            real++;
            squaredError += (mean - labels[i]) ** 2;
          }
        }
        const calibration: CalibrationBin[] = binary === 0 ? [] : Array.from({ length: bins }, (_, b) => ({
          lower: b / bins, upper: (b + 1) / bins, count: count[b],
          meanPredicted: count[b] === 0 ? Number.NaN : predicted[b] / count[b],
          observedRate: count[b] === 0 ? Number.NaN : observed[b] / count[b],
        }));
        subscriber.next({
          records, recordsSeen: event.recordsSeen, logLoss: records === 0 ? Number.NaN : logLoss / records,
          brier: binary === 0 ? Number.NaN : brier / binary,
          squaredError: real === 0 ? Number.NaN : squaredError / real,
          calibration,
        });
      },
    }));
  });
}
