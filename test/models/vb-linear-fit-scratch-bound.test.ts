import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { gramAccumulate } from '../../src/linalg/gram-accumulate.js';
import { spdInverse } from '../../src/linalg/spd-inverse.js';
import { createModel } from '../../src/registry.js';
import { linearData } from '../helpers/synthetic-data.js';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Bytes held by ArrayBuffers (typed arrays' storage, the WebAssembly memory included) after a full collection. */
function retainedArrayBytes(): number {
  collect();
  collect();
  return process.memoryUsage().arrayBuffers;
}

describe('vb-linear fits release a large scratch', () => {
  // The passes' scratch is kept per thread between fits (a fit at d = 100 allocates none), but a fit at a large d
  // must not leave megabytes behind it: one ARD fit at d = 1,000 kept 32 MB for the life of the process.
  it('after an ARD fit at d = 450 (4.9 MB of scratch) and the model dropped, under 1 MB more array storage is held than before', () => {
    const d = 450;
    const n = 500;
    const data = linearData(n, d, 11);
    // The kernels' WebAssembly memory grows to the largest operands and never shrinks: grow it first, to those of this fit.
    const xtx = new Float64Array(d * d);
    gramAccumulate(data.x, n, d, xtx, 1, undefined, data.y, new Float64Array(d));
    for (let i = 0; i < d; i++) xtx[i * d + i] += 1;
    spdInverse(xtx, d, new Float64Array(d * d));
    const before = retainedArrayBytes();
    let model: ReturnType<typeof createModel> | undefined = createModel('vb-linear-ard', d);
    model.update({ x: data.x, y: data.y, n, d });
    expect(model.posterior().iterations).toBeGreaterThan(1);
    model = undefined;
    expect(retainedArrayBytes() - before).toBeLessThan(1 << 20);
  });
});
