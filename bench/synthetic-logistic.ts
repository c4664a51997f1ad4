import { syntheticBinary } from './synthetic-binary.js';

/** Seeded logistic data: x ~ N(0, I) with x₁ = 1, w ~ N(0, I/d)·3, labels 0/1. */
export function syntheticLogistic(n: number, d: number, seed: number): { x: Float64Array; y: Float64Array; w: Float64Array } {
  return syntheticBinary(n, d, seed, 'logit');
}
