import { InputError } from '../../src/core/input-error.js';
import type { LoggedDecision } from './logged-decision.js';

const isNumberArray = (value: unknown): value is number[] => Array.isArray(value) && value.every((v) => typeof v === 'number' && Number.isFinite(v));

/** A decisions-topic value (parsed JSON) as a {@link LoggedDecision} of a policy with `arms` arms and `dim` features; anything else throws an `InputError`. */
export function parseLoggedDecision(body: unknown, arms: number, dim: number): LoggedDecision {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InputError('a logged decision must be a JSON object', { field: 'body' });
  const d = body as { readonly [key: string]: unknown };
  if (typeof d.decisionId !== 'string' || d.decisionId === '') throw new InputError('decisionId must be a non-empty string', { field: 'decisionId', value: d.decisionId });
  if (typeof d.arm !== 'number' || !Number.isInteger(d.arm) || d.arm < 0 || d.arm >= arms) throw new InputError(`arm must be an integer in [0, ${arms})`, { field: 'arm', value: d.arm });
  if (!isNumberArray(d.context) || d.context.length !== dim) throw new InputError(`context must be ${dim} finite numbers`, { field: 'context' });
  if (typeof d.propensity !== 'number' || !(d.propensity > 0 && d.propensity <= 1)) throw new InputError('propensity must be in (0, 1]', { field: 'propensity', value: d.propensity });
  if (typeof d.decidedAt !== 'number' || !Number.isFinite(d.decidedAt)) throw new InputError('decidedAt must be a time in ms', { field: 'decidedAt', value: d.decidedAt });
  return {
    decisionId: d.decisionId, arm: d.arm, propensity: d.propensity, propensityMethod: d.propensityMethod === 'exact' || d.propensityMethod === 'quadrature' ? d.propensityMethod : 'monte-carlo',
    scores: isNumberArray(d.scores) ? d.scores : [], context: d.context, decidedAt: d.decidedAt,
    instance: typeof d.instance === 'string' ? d.instance : '', policyRewards: typeof d.policyRewards === 'number' ? d.policyRewards : 0,
  };
}
