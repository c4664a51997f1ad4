/** s² above which the logit's tilted moments come from its probit approximation rather than quadrature, and its predictive from the model's own Gauss–Hermite rule under N(μ, s²). */
export const WIDE_PROJECTION = 25;
