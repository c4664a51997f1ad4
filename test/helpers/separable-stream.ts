import { Rng } from '../../src/rng/rng.js';

/**
 * A seeded (near-)separable design: x ~ N(0, scale²·I), labels 1{zᵀw > 0} (z = x/scale, w ~ N(0, I))
 * with a share `flip` of them flipped; in file order, shuffled, or sorted by the score zᵀw (the
 * hardest order: one class, then the boundary, then the other).
 */
export function separableStream(n: number, d: number, seed: number, scale: number, flip: number, order: 'file' | 'sorted' | 'shuffled') {
  const rng = Rng.fromSeed(seed);
  const w = Float64Array.from({ length: d }, () => rng.normal());
  const rows = Array.from({ length: n }, () => {
    const z = Array.from({ length: d }, () => rng.normal());
    const score = z.reduce((sum, v, j) => sum + v * w[j], 0);
    return { x: z.map((v) => scale * v), y: (score > 0) !== (rng.nextDouble() < flip) ? 1 : 0, score };
  });
  if (order === 'sorted') rows.sort((a, b) => a.score - b.score);
  if (order === 'shuffled') {
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rng.nextDouble() * (i + 1));
      [rows[i], rows[j]] = [rows[j], rows[i]];
    }
  }
  return { x: Float64Array.from(rows.flatMap((r) => r.x)), y: Float64Array.from(rows, (r) => r.y), n, d };
}
