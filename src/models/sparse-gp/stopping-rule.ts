/**
 * The paper's convergence test (Wei, Sheth & Khardon 2021, App. B "Training"): stop when
 * max − min of the last `window` losses is at most `tolerance` (I = 50 for regression, 20 for
 * classification and counts; tolerance 1e-4).
 */
export class StoppingRule {
  private readonly losses: Float64Array;
  private count = 0;

  constructor(readonly window: number, readonly tolerance: number) {
    this.losses = new Float64Array(window);
  }

  /** Records a loss; true when the last `window` losses span at most `tolerance`. */
  push(loss: number): boolean {
    this.losses[this.count % this.window] = loss;
    this.count += 1;
    if (this.count < this.window) return false;
    let min = Infinity;
    let max = -Infinity;
    for (const v of this.losses) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    return max - min <= this.tolerance;
  }
}
