import { jaakkolaJordanLambda } from './jaakkola-jordan-lambda.js';

/**
 * Mean of the Pólya-gamma distribution PG(1, c): E[ω] = tanh(c/2)/(2c) (Polson, Scott & Windle
 * 2013; Durante & Rigon Lemma 2.1, the z̄ of Algorithms 2–3). It is twice the Jaakkola–Jordan λ(c),
 * so it is computed as exactly that (the doubling is exact): 1/4 at c = 0, even in c.
 */
export function polyaGammaMean(c: number): number {
  return 2 * jaakkolaJordanLambda(c);
}
