import type { Rng } from '../../rng/rng.js';
import { normalLogPdf } from '../../special/normal-log-pdf.js';
import { normalQuantile } from '../../special/normal-quantile.js';
import type { Predictive } from '../predictive.js';

/** Gaussian predictive distribution N(mean, variance) of a real label. */
export class GaussianPredictive implements Predictive {
  readonly kind = 'gaussian' as const;

  constructor(readonly mean: number, readonly variance: number) {}

  logProb(y: number): number {
    return normalLogPdf(y, this.mean, this.variance);
  }

  sample(rng: Rng): number {
    return this.mean + Math.sqrt(this.variance) * rng.normal();
  }

  interval(level: number): [number, number] {
    if (!(level > 0 && level < 1)) throw new RangeError(`interval level must be in (0, 1), got ${level}`);
    const half = normalQuantile(0.5 + level / 2) * Math.sqrt(this.variance);
    return [this.mean - half, this.mean + half];
  }
}
