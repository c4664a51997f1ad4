import { SyntheticGenerator } from 'vbstream/files';
import { directFamily, Rng } from 'vbstream';
import { dot } from 'vbstream/linalg';
import { IntegerCodeScorer } from './integer-code-scorer.js';

/** Settings of {@link runDirectQuantized}. */
export interface DirectQuantizedSettings {
  readonly records: number;
  readonly batchSize: number;
  /** Random Fourier feature pairs (b = 2·count). */
  readonly features: number;
  readonly samples: number;
  readonly testPoints: number;
  readonly seed: number;
}

export const DEFAULT_DIRECT_QUANTIZED: DirectQuantizedSettings = { records: 5000, batchSize: 250, features: 20, samples: 64, testPoints: 200, seed: 1 };

/** What the run produced. */
export interface DirectQuantizedResults {
  readonly b: number;
  /** The exported samples: `samples` × ⌈b/2⌉ bytes of packed 4-bit codes. */
  readonly codes: Uint8Array;
  readonly bytesPerSample: number;
  /** Per test point: its inputs, the true f, the model's predictive mean and the mean of the integer-code scores. */
  readonly test: { readonly x: number[]; readonly truth: number; readonly predictiveMean: number; readonly codeMean: number }[];
  /** Largest |integer-code score − decoded-weights score| over all samples and points. */
  readonly maxCodeError: number;
  readonly rmsePredictive: number;
  readonly rmseCodes: number;
  readonly sparsity: number;
}

/**
 * DIRECT on a stream: a seeded 2-d GP-like regression stream is learned in minibatches by `direct`
 * with random Fourier features (the fit runs once, when the posterior is read); then `samples`
 * posterior draws are exported as packed 4-bit codes and test points are scored from the codes with
 * {@link IntegerCodeScorer}, next to the exact predictive mean.
 */
export function runDirectQuantized(settings: DirectQuantizedSettings = DEFAULT_DIRECT_QUANTIZED): DirectQuantizedResults {
  const dim = 2;
  const data = new SyntheticGenerator({ kind: 'gp', dim, seed: settings.seed, noise: 0.1 });
  const model = directFamily.create(dim, { features: { type: 'rff', count: settings.features, lengthscale: 1, seed: settings.seed } });
  for (let seen = 0; seen < settings.records; seen += settings.batchSize) {
    const n = Math.min(settings.batchSize, settings.records - seen);
    const x = new Float64Array(n * dim);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) y[i] = data.next(x.subarray(i * dim, (i + 1) * dim));
    model.update({ x, y, n, d: dim });
  }
  const { grid } = model;
  const scorer = new IntegerCodeScorer(grid);
  const rng = Rng.fromSeed(settings.seed + 1);
  const draws = Array.from({ length: settings.samples }, () => model.sampleCodes(rng));
  const bytesPerSample = draws[0].codes.length;
  const codes = new Uint8Array(settings.samples * bytesPerSample);
  draws.forEach((draw, s) => codes.set(draw.codes, s * bytesPerSample));
  const features = model.featureMap!;
  const phi = new Float64Array(grid.b);
  const decoded = new Float64Array(grid.b);
  const testRng = Rng.fromSeed(settings.seed + 2);
  let maxCodeError = 0;
  let sePredictive = 0;
  let seCodes = 0;
  const test = Array.from({ length: settings.testPoints }, () => {
    const x = Float64Array.from({ length: dim }, () => testRng.normal());
    features.map(x, 0, phi);
    let sum = 0;
    for (const draw of draws) {
      const score = scorer.score(phi, draw.codes);
      maxCodeError = Math.max(maxCodeError, Math.abs(score - dot(phi, draw.decode(decoded), grid.b)));
      sum += score;
    }
    const truth = data.signal(x);
    const predictiveMean = model.predict(x).mean;
    const codeMean = sum / draws.length;
    sePredictive += (predictiveMean - truth) ** 2;
    seCodes += (codeMean - truth) ** 2;
    return { x: Array.from(x), truth, predictiveMean, codeMean };
  });
  return {
    b: grid.b, codes, bytesPerSample, test, maxCodeError,
    rmsePredictive: Math.sqrt(sePredictive / test.length), rmseCodes: Math.sqrt(seCodes / test.length), sparsity: model.posterior().sparsity,
  };
}
