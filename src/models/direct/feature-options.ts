import { ConfigError } from '../../core/config-error.js';
import type { OptionDocs } from '../../core/option-docs.js';
import { optionChecks } from '../../core/option-checks.js';
import { RandomFourierFeatures } from '../../features/random-fourier-features.js';
import { Rng } from '../../rng/rng.js';

/** A random Fourier feature map as an option: `count` frequencies give b = 2·count features. */
export interface RffOptions {
  readonly type: 'rff';
  readonly count: number;
  /** One lengthscale, or one per input (ARD). */
  readonly lengthscale: number | readonly number[];
  readonly seed?: number;
}

/** What the `features` option of both DIRECT families means. */
export const FEATURES_OPTION_DOCS: OptionDocs = {
  type: "'rff': random Fourier features of the squared-exponential kernel (records then carry raw inputs; or pass an existing map, `model.featureMap`)",
  count: 'frequencies c: b = 2c features',
  lengthscale: 'one lengthscale, or one per input (ARD)',
  seed: 'seed of the frequencies (default 1)',
};

/**
 * The feature map an option asks for (`undefined`: records are Φ as given), for inputs of dimension
 * `dim`: drawn from `{type: 'rff', …}`, or an existing map (immutable, so shared) taken as is.
 */
export function rffFromOptions(dim: number, options: RffOptions | RandomFourierFeatures | undefined): RandomFourierFeatures | undefined {
  if (options === undefined) return undefined;
  if (options instanceof RandomFourierFeatures) {
    if (options.inputDim !== dim) throw new ConfigError(`the feature map takes ${options.inputDim} inputs, the model ${dim}`, { field: 'features', value: options.inputDim });
    return options;
  }
  if (typeof options !== 'object' || options === null || options.type !== 'rff') throw new ConfigError('only {"type":"rff", …} feature maps are supported', { field: 'features.type', value: (options as { type?: unknown } | null)?.type });
  const count = optionChecks.positiveInteger('features.count', options.count, 0);
  const seed = optionChecks.finite('features.seed', options.seed, 1);
  if (!Number.isSafeInteger(seed)) throw new ConfigError('must be an integer', { field: 'features.seed', value: seed });
  const ls = options.lengthscale;
  if (!(typeof ls === 'number' || Array.isArray(ls))) throw new ConfigError('must be a number or an array of numbers', { field: 'features.lengthscale', value: ls });
  return RandomFourierFeatures.sample(dim, count, ls, Rng.fromSeed(seed));
}
