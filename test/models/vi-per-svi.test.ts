import { describe, expect, it } from 'vitest';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import type { JsonValue } from '../../src/core/model-snapshot.js';
import type { ViPerModel } from '../../src/models/vi-per/index.js';
import { getFamily } from '../../src/registry.js';
import { gaussianKl } from '../../src/gaussian/gaussian-kl.js';
import { logisticData, rows } from '../helpers/synthetic-data.js';

/**
 * Issue 16: `vi-per` under `svi` did not converge with its defaults (Adam at a constant 0.05, one step
 * per minibatch). The yardstick is the one-batch `sda` fit of the same family on all the data (the
 * optimum of F), and the distance KL(q_sda ‖ q_svi).
 */
const n = 2000;
const d = 5;
const data = logisticData(n, d, 1);

function sdaFit(): ViPerModel {
  const model = getFamily('vi-per').create(d) as ViPerModel;
  model.update({ x: data.x, y: data.y, n, d });
  return model;
}

/** KL(sda ‖ svi) after each of the `checkpoints` passes of minibatches of 100 in file order, N = n. */
function sviKl(options: object, checkpoints: readonly number[]): number[] {
  const reference = sdaFit();
  const model = getFamily('vi-per').create(d, { streaming: 'svi', dataSize: n, ...options });
  const out: number[] = [];
  for (let pass = 1; pass <= Math.max(...checkpoints); pass++) {
    for (let b = 0; b < n; b += 100) model.update(rows(data, b, b + 100));
    if (checkpoints.includes(pass)) out.push(gaussianKl(reference.posteriorMean(), reference.covariance(), model.posteriorMean(), model.covariance(), d));
  }
  return out;
}

describe('vi-per svi (natural-gradient SVI, ρ_t = 1/(t + 1)) converges to the batch fit with its defaults', () => {
  it('n = 2,000, p = 5, minibatches of 100, dataSize = n: KL(sda ‖ svi) < 0.01 after 5 passes and no larger after 20', () => {
    const [kl5, kl20] = sviKl({}, [5, 20]);
    // Measured 1.6e-3 and 1.0e-4. 0.01 nats is a mean offset of at most ~0.14 posterior sd (or a
    // ~10 % sd error) in one direction: the fit, to within what the data can tell; the old Adam
    // default was at KL 3.1 after 5 passes (test below).
    expect(kl5).toBeLessThan(0.01);
    expect(kl20).toBeLessThanOrEqual(kl5);
    expect(kl20).toBeLessThan(1e-3);
  });

  it('optimizer `adam` keeps the earlier behaviour (constant learning rate 0.05): far from the fit after 5 passes', () => {
    const [kl5] = sviKl({ optimizer: 'adam' }, [5]);
    expect(kl5).toBeGreaterThan(1);
  });

  it('the step count survives snapshot → bytes → restore; a snapshot without the new settings restores as `adam`', () => {
    const model = getFamily('vi-per').create(d, { streaming: 'svi', dataSize: n });
    model.update(rows(data, 0, 100));
    const restored = getFamily('vi-per').restore(decodeSnapshot(encodeSnapshot(model.snapshot())).snapshot);
    model.update(rows(data, 100, 200));
    restored.update(rows(data, 100, 200));
    expect(encodeSnapshot(restored.snapshot())).toEqual(encodeSnapshot(model.snapshot()));
    const old = getFamily('vi-per').create(d, { streaming: 'svi', optimizer: 'adam', dataSize: n });
    old.update(rows(data, 0, 100));
    const snapshot = old.snapshot();
    const { optimizer: _o, tau: _t, kappa: _k, ...settings } = (snapshot.header as { settings: { [key: string]: JsonValue } }).settings;
    const legacy = getFamily('vi-per').restore({ ...snapshot, header: { ...snapshot.header, settings } });
    expect((legacy as ViPerModel).diagnostics.settings.optimizer).toBe('adam');
    expect(encodeSnapshot(legacy.snapshot())).toEqual(encodeSnapshot(old.snapshot()));
  });

  it('options are validated: optimizer, τ > 0, κ ∈ (0.5, 1]', () => {
    expect(() => getFamily('vi-per').create(d, { optimizer: 'sgd' } as never)).toThrow(/optimizer/);
    expect(() => getFamily('vi-per').create(d, { tau: 0 })).toThrow(/tau/);
    expect(() => getFamily('vi-per').create(d, { kappa: 0.5 })).toThrow(/kappa/);
    expect(() => getFamily('vi-per').create(d, { kappa: 1.1 })).toThrow(/kappa/);
  });
});
