import type { Rng } from '../../rng/rng.js';
import { lgamma } from '../../special/lgamma.js';
import { studentTQuantile } from '../../special/student-t-quantile.js';
import type { Predictive } from '../predictive.js';

/**
 * Student-t predictive St(y | location, precision, df) as in Drugowitsch eq. (23): density
 * ∝ (1 + precision·(y − location)²/df)^(−(df+1)/2). `precision` is λ, not a variance.
 */
export class StudentTPredictive implements Predictive {
  readonly kind = 'student-t' as const;

  constructor(readonly location: number, readonly precision: number, readonly df: number) {}

  get mean(): number {
    return this.df > 1 ? this.location : Number.NaN;
  }

  get variance(): number {
    return this.df > 2 ? this.df / ((this.df - 2) * this.precision) : Infinity;
  }

  logProb(y: number): number {
    const { df, precision } = this;
    const r = y - this.location;
    return lgamma((df + 1) / 2) - lgamma(df / 2) + 0.5 * Math.log(precision / (df * Math.PI)) - ((df + 1) / 2) * Math.log1p((precision * r * r) / df);
  }

  sample(rng: Rng): number {
    const chiSquare = 2 * rng.gamma(this.df / 2, 1);
    return this.location + rng.normal() / Math.sqrt((this.precision * chiSquare) / this.df);
  }

  interval(level: number): [number, number] {
    if (!(level > 0 && level < 1)) throw new RangeError(`interval level must be in (0, 1), got ${level}`);
    const half = studentTQuantile(0.5 + level / 2, this.df) / Math.sqrt(this.precision);
    return [this.location - half, this.location + half];
  }
}
