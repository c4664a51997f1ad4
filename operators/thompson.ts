import { defer, filter, map, type OperatorFunction } from 'rxjs';
import { ThompsonPolicy } from '../src/bandit/thompson-policy.js';
import { ConfigError } from '../src/core/config-error.js';
import { InputError } from '../src/core/input-error.js';
import type { OnlineModel } from '../src/core/online-model.js';
import { ShapeError } from '../src/core/shape-error.js';
import type { BadRecordSink } from './bad-record.js';
import type { ThompsonDecision } from './thompson-decision.js';

/** Options of {@link thompson}. */
export interface ThompsonOptions {
  /** Seed of the policy's generator; each subscription starts from it, so decisions replay. */
  readonly seed: number;
  /** Joint posterior draws behind each decision's propensity where it is Monte Carlo (default 100; vb-logit-online arms get it by quadrature; see `ThompsonPolicy`). */
  readonly propensityDraws?: number;
  /** Scale of the draws about the posterior mean (`ThompsonPolicy`'s `exploration`); default 1: the posteriors as they are. */
  readonly exploration?: number;
  /** Receives contexts that cannot be scored (wrong width, non-finite). */
  readonly badRecords?: BadRecordSink;
}

/**
 * Thompson sampling over arms whose rewards follow a linear-predictor family, as a `map` over a
 * `ThompsonPolicy` (vbstream/bandit) of the live arm models, made afresh for each subscription: for
 * each context x, θ·x is drawn from every arm's current posterior and the largest wins (ties go to
 * the first). Whatever updates the models between contexts is seen. A context that cannot be scored
 * goes to `badRecords`; errors and completion pass through.
 */
export function thompson<T extends { readonly x: Float64Array; readonly row?: number }>(arms: ReadonlyMap<string, OnlineModel>, options: ThompsonOptions): OperatorFunction<T, ThompsonDecision<T>> {
  const ids = [...arms.keys()];
  const models = [...arms.values()];
  if (models.length === 0) throw new ConfigError('thompson() needs at least one arm', { field: 'arms' });
  const dim = models[0].dim;
  for (const [i, model] of models.entries()) {
    if (model.dim !== dim) throw new ConfigError(`arm "${ids[i]}" has ${model.dim} features, the first arm ${dim}`, { field: 'arms', value: ids[i] });
  }
  const policyOptions = { seed: options.seed, models, propensityDraws: options.propensityDraws, exploration: options.exploration ?? 1 };
  void new ThompsonPolicy(policyOptions); // refuses bad options when the operator is made, not at subscription
  return (source) => defer(() => {
    const policy = new ThompsonPolicy(policyOptions);
    const usable = (context: T): boolean => {
      let error: Error | undefined;
      if (context.x.length !== dim) error = new ShapeError(`context has ${context.x.length} features but the arms have ${dim}`, { row: context.row, field: 'x', value: context.x.length });
      else {
        const j = context.x.findIndex((v) => !Number.isFinite(v));
        if (j >= 0) error = new InputError('feature is not finite', { row: context.row, column: j + 1, value: context.x[j] });
      }
      if (error !== undefined) options.badRecords?.next({ record: context, reason: error.message, error });
      return error === undefined;
    };
    return source.pipe(
      filter(usable),
      map((context) => {
        const decision = policy.decide(context.x);
        return { context, arm: ids[decision.arm], index: decision.arm, draws: decision.scores, decisionId: decision.decisionId, propensity: decision.propensity };
      }),
    );
  });
}
