/**
 * A Gaussian prior N(mean, covariance) as a user gives it: `mean` a number (every coefficient) or
 * one value per coefficient; `covariance` a variance (isotropic), one variance per coefficient (a
 * diagonal), a d×d matrix as rows, or a flat row-major `Float64Array` of d·d values.
 */
export interface GaussianPriorOptions {
  readonly mean?: number | readonly number[] | Float64Array;
  readonly covariance?: number | readonly number[] | readonly (readonly number[])[] | Float64Array;
}
