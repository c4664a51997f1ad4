import { selectByBound, type RankedCandidate } from 'vbstream';
import { paperPolynomialData, type PolynomialData } from './paper-polynomial-data.js';

/** Settings of {@link runModelSelection}. */
export interface ModelSelectionSettings {
  readonly seed: number;
  /** Polynomial orders tried: 0 … maxOrder (the paper's Ds = 1:10 weights is orders 0 … 9). */
  readonly maxOrder: number;
}

export const DEFAULT_MODEL_SELECTION: ModelSelectionSettings = { seed: 1, maxOrder: 9 };

/** One task's result: the data, the bound of every order (index = order) and the ranking. */
export interface OrderSelection {
  readonly family: 'vb-linear' | 'vb-logit';
  readonly data: PolynomialData;
  readonly bounds: number[];
  readonly ranking: RankedCandidate[];
  readonly bestOrder: number;
}

/** Ranks polynomial orders 0 … maxOrder by the variational bound, on the paper's regression (vb-linear) and classification (vb-logit) data. */
export function runModelSelection(settings: ModelSelectionSettings = DEFAULT_MODEL_SELECTION): { regression: OrderSelection; classification: OrderSelection } {
  const select = (family: 'vb-linear' | 'vb-logit', data: PolynomialData): OrderSelection => {
    const orders = Array.from({ length: settings.maxOrder + 1 }, (_, order) => order);
    const ranking = selectByBound(orders.map((order) => ({ name: `order ${order}`, family, features: { type: 'polynomial', degree: order } })), data);
    const bounds = orders.map((order) => ranking.find((c) => c.name === `order ${order}`)!.bound);
    return { family, data, bounds, ranking, bestOrder: Number(ranking[0].name.slice('order '.length)) };
  };
  return {
    regression: select('vb-linear', paperPolynomialData('regression', settings.seed)),
    classification: select('vb-logit', paperPolynomialData('classification', settings.seed)),
  };
}
