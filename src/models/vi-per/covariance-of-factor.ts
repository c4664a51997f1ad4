/** Σ = LLᵀ from a lower Cholesky factor L (row-major d×d), as a new d×d row-major array, exactly symmetric. */
export function covarianceOfFactor(l: Float64Array, d: number): Float64Array {
  const sigma = new Float64Array(d * d);
  for (let i = 0; i < d; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = 0;
      for (let k = 0; k <= j; k++) sum += l[i * d + k] * l[j * d + k];
      sigma[i * d + j] = sigma[j * d + i] = sum;
    }
  }
  return sigma;
}
