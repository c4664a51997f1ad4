/**
 * How a candidate model sees the input columns (the basis of its linear predictor):
 * - `identity`: the columns as they are;
 * - `columns`: the listed columns only (0-based), in that order: a feature subset;
 * - `polynomial`: a bias 1 then x_c, x_c², …, x_c^degree of each listed column (default all), no
 *   cross terms; one column and degree k is the order-k polynomial basis of Drugowitsch §2.6.4;
 * - `rbf`: a bias 1 then exp(−‖x − c‖²/(2ℓ²)) for each centre c (a Gaussian kernel basis on the
 *   listed columns, default all; each centre has one coordinate per listed column).
 */
export type FeatureTransform =
  | { readonly type: 'identity' }
  | { readonly type: 'columns'; readonly columns: readonly number[] }
  | { readonly type: 'polynomial'; readonly degree: number; readonly columns?: readonly number[] }
  | { readonly type: 'rbf'; readonly centres: readonly (readonly number[])[]; readonly lengthscale: number; readonly columns?: readonly number[] };
