import type { SparseGpModel } from './family.js';

/** The paper's β grid [n, n/2, n/4, …, 0.01]: halving from n while above 0.01, then 0.01 (Wei, Sheth & Khardon 2021, §5). */
export function betaGrid(n: number): number[] {
  const grid: number[] = [];
  for (let beta = n; beta > 0.01; beta /= 2) grid.push(beta);
  grid.push(0.01);
  return grid;
}

/**
 * β selection on a validation split (Wei, Sheth & Khardon 2021, §5): the last `validationFraction`
 * (default 20%) of the n rows is held out; for each β of `grid` a model from `make(beta)` is fitted on
 * the rest and scored by the mean validation log loss −log p(y | x); returns the best β and every score.
 */
export function selectBeta(make: (beta: number) => SparseGpModel, x: Float64Array, y: Float64Array, n: number, d: number,
  fit: { batchSize?: number; maxIterations?: number; window?: number; tolerance?: number } = {}, grid: readonly number[] = betaGrid(n), validationFraction = 0.2): { beta: number; scores: { beta: number; logLoss: number }[] } {
  const nTrain = n - Math.max(1, Math.round(validationFraction * n));
  const scores = grid.map((beta) => {
    const model = make(beta);
    model.fit(x.subarray(0, nTrain * d), y.subarray(0, nTrain), nTrain, fit);
    const latent = model.predictLatent(x.subarray(nTrain * d, n * d), n - nTrain);
    let loss = 0;
    for (let i = 0; i < n - nTrain; i++) loss -= model.predictiveFromLatent(latent.mean[i], latent.variance[i]).logProb(y[nTrain + i]);
    return { beta, logLoss: loss / (n - nTrain) };
  });
  const best = scores.reduce((a, b) => (b.logLoss < a.logLoss ? b : a));
  return { beta: best.beta, scores };
}
