import { SyntheticGenerator } from '../../connectors/file/synthetic-generator.js';
import type { Task } from '../../src/core/task.js';
import type { LabelledRecord } from '../../operators/labelled-record.js';
import { Rng } from '../../src/rng/rng.js';

/**
 * Seeded records whose labels suit a family's task: 0/1 for classification (logistic truth), real
 * for regression (linear truth), counts for count families (Poisson with log-rate wᵀx/2). Feature 1
 * is a bias column. Every family in the registry gets data through this one function.
 */
export function taskRecords(task: Task, n: number, dim: number, seed: number): LabelledRecord[] {
  const generator = new SyntheticGenerator({ kind: task === 'regression' ? 'linear' : 'logistic', dim, seed });
  const rng = Rng.fromSeed(seed + 1);
  return Array.from({ length: n }, (_, i) => {
    const x = new Float64Array(dim);
    let y = generator.next(x);
    if (task === 'count') {
      const rate = Math.exp(generator.signal(x) / 2);
      const u = rng.nextDouble();
      let k = 0;
      let p = Math.exp(-rate);
      let cumulative = p;
      while (u > cumulative && k < 1000) {
        k++;
        p *= rate / k;
        cumulative += p;
      }
      y = k;
    }
    return { x, y, row: i + 1, position: { source: 'test', offset: i + 1 } };
  });
}
