import { logitRuleFor, type LogitRules } from './logit-rules.js';
import { logitTilt, type LogitTilt } from './logit-tilt.js';
import { logitTiltSeries } from './logit-tilt-series.js';

/** s² up to which the closed-form series is used (within 3e-12 relative of a 160-node rule; the ladder's rules are held to 1e-10). */
const SERIES_VARIANCE = 0.005;

/**
 * The logistic site's tilted quantities under f ~ N(μ, s²) by the cheapest method exact enough at s²:
 * the closed-form series for a narrow projection ({@link logitTiltSeries}, the usual case once a few
 * thousand records are in), else mode-centred Gauss–Hermite with the smallest rule of `rules` exact
 * enough there ({@link logitTilt}, {@link logitRuleFor}). Writes `out`.
 */
export function logitTiltFor(out: LogitTilt, mu: number, s2: number, rules: LogitRules): LogitTilt {
  return s2 <= SERIES_VARIANCE ? logitTiltSeries(out, mu, s2) : logitTilt(out, mu, s2, logitRuleFor(rules, s2));
}
