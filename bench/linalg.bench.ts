import { Matrix } from 'ml-matrix';
import { gemv } from '../src/linalg/gemv.js';
import { symmetricRank1Update } from '../src/linalg/symmetric-rank1-update.js';
import { formatCount, throughput } from './measure.js';

/**
 * Why the per-record hot path is on flat Float64Arrays: one record's O(d²) work (y = A·x then
 * A += α·x·xᵀ) on flat arrays vs the same on ml-matrix objects, which allocate a matrix per product.
 */
process.stdout.write('one gemv + one symmetric rank-1 update per record\n    d   flat Float64Array/s   ml-matrix/s   ratio\n');
for (const d of [10, 25, 100]) {
  const a = new Float64Array(d * d);
  for (let i = 0; i < d; i++) a[i * d + i] = 1;
  const x = Float64Array.from({ length: d }, (_, i) => Math.sin(i + 1));
  const y = new Float64Array(d);
  const flat = throughput(() => {
    for (let k = 0; k < 1000; k++) {
      gemv(a, d, d, x, y);
      symmetricRank1Update(a, d, 1e-9, x);
    }
    return 1000;
  }, 800);
  let am = Matrix.eye(d, d);
  const xm = Matrix.columnVector(Array.from(x));
  const mm = throughput(() => {
    for (let k = 0; k < 100; k++) {
      am.mmul(xm);
      am = am.add(xm.mmul(xm.transpose()).mul(1e-9));
    }
    return 100;
  }, 800);
  process.stdout.write(`${String(d).padStart(5)} ${formatCount(flat).padStart(21)} ${formatCount(mm).padStart(13)} ${(flat / mm).toFixed(1).padStart(7)}\n`);
}
