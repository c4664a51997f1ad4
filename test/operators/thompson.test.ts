import { from, lastValueFrom, Subject, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { BadRecord } from '../../operators/bad-record.js';
import { thompson } from '../../operators/thompson.js';
import { ConfigError } from '../../src/core/config-error.js';
import { makeBatch } from '../../src/core/make-batch.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { Rng } from '../../src/rng/rng.js';
import { getFamily } from '../../src/registry.js';

function arm(rate: number, n: number, seed: number): OnlineModel {
  const model = getFamily('vb-logit-online').create(1);
  const rng = Rng.fromSeed(seed);
  model.update(makeBatch(Array.from({ length: n }, () => [1]), Array.from({ length: n }, () => (rng.nextDouble() < rate ? 1 : 0))));
  return model;
}

const contexts = (n: number) => Array.from({ length: n }, (_, i) => ({ x: Float64Array.of(1), row: i + 1 }));

describe('thompson(arms)', () => {
  it('is seeded: the same seed replays the same decisions, another seed differs', async () => {
    const arms = new Map([['a', arm(0.5, 20, 1)], ['b', arm(0.55, 20, 2)]]);
    const run = (seed: number) => lastValueFrom(from(contexts(200)).pipe(thompson(arms, { seed }), toArray())).then((d) => d.map((x) => x.arm).join(''));
    expect(await run(7)).toBe(await run(7));
    expect(await run(7)).not.toBe(await run(8));
  });

  it('picks each arm about as often as its posterior probability of being best, and the argmax of its draws', async () => {
    const arms = new Map([['weak', arm(0.2, 400, 3)], ['strong', arm(0.8, 400, 4)], ['unknown', getFamily('vb-logit-online').create(1)]]);
    const decisions = await lastValueFrom(from(contexts(2000)).pipe(thompson(arms, { seed: 1 }), toArray()));
    for (const d of decisions) {
      expect(d.draws[d.index]).toBe(Math.max(...d.draws));
      expect(d.propensity).toBeGreaterThan(0);
    }
    expect(decisions.map((d) => d.decisionId).slice(0, 2)).toEqual(['t1-1', 't1-2']);
    const share = (id: string) => decisions.filter((d) => d.arm === id).length / decisions.length;
    expect(share('weak')).toBeLessThan(0.02);
    // P(a N(0, 1) draw beats the strong arm's ≈ N(1.31, 0.12²)) ≈ 0.09: seeds 1–3 give 0.08–0.11
    expect(share('unknown')).toBeGreaterThan(0.06);
    expect(share('strong')).toBeGreaterThan(0.5);
  });

  it('sees the arms learn between contexts (live models)', async () => {
    const a = getFamily('vb-logit-online').create(1);
    const b = getFamily('vb-logit-online').create(1);
    b.update(makeBatch(Array.from({ length: 200 }, () => [1]), Array.from({ length: 200 }, () => 0)));
    const subject = new Subject<{ x: Float64Array }>();
    const out = lastValueFrom(subject.pipe(thompson(new Map([['a', a], ['b', b]]), { seed: 3 }), toArray()));
    for (let i = 0; i < 50; i++) subject.next({ x: Float64Array.of(1) });
    a.update(makeBatch(Array.from({ length: 200 }, () => [1]), Array.from({ length: 200 }, () => 0)));
    b.update(makeBatch(Array.from({ length: 400 }, () => [1]), Array.from({ length: 400 }, () => 1)));
    for (let i = 0; i < 50; i++) subject.next({ x: Float64Array.of(1) });
    subject.complete();
    const arms = (await out).map((d) => d.arm);
    expect(arms.slice(0, 50).filter((x) => x === 'a').length).toBeGreaterThan(45);
    expect(arms.slice(50).filter((x) => x === 'b').length).toBeGreaterThan(45);
  });

  it('routes bad contexts aside, passes errors and completion, refuses bad arm sets', () => {
    const arms = new Map([['a', arm(0.5, 5, 1)]]);
    const bad = new Subject<BadRecord>();
    const reasons: string[] = [];
    bad.subscribe((b) => reasons.push(b.reason));
    new TestScheduler((x, y) => expect(x).toEqual(y)).run(({ cold, expectObservable }) => {
      const values = { g: { x: Float64Array.of(1), row: 1 }, n: { x: Float64Array.of(Number.NaN), row: 2 }, w: { x: Float64Array.of(1, 2), row: 3 } };
      const out = cold('gnwg#', values).pipe(thompson(arms, { seed: 1, badRecords: bad }));
      expectObservable(out, '^----').toBe('a--b#', { a: expect.objectContaining({ arm: 'a' }), b: expect.objectContaining({ arm: 'a' }) });
    });
    expect(reasons).toEqual([expect.stringMatching(/feature is not finite \(row 2, column 1/), expect.stringMatching(/context has 2 features but the arms have 1 \(row 3/)]);
    expect(() => thompson(new Map(), { seed: 1 })).toThrow(ConfigError);
    expect(() => thompson(new Map([['a', getFamily('vb-linear').create(1)], ['b', getFamily('vb-linear').create(2)]]), { seed: 1 })).toThrow(/arm "b" has 2 features/);
  });
});
