import fc from 'fast-check';
import { from, lastValueFrom, map, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { minibatch } from '../../operators/minibatch.js';
import { ConfigError } from '../../src/core/config-error.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('minibatch(size, maxWaitMs)', () => {
  it('emits full batches, a short one after maxWaitMs, the rest on completion', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('a b c d 20ms e f|');
      expectObservable(source.pipe(minibatch(3, 10))).toBe('--x 10ms y 12ms (z|)', { x: ['a', 'b', 'c'], y: ['d'], z: ['e', 'f'] });
    });
  });

  it('passes an error on and drops the pending items, as bufferCount does', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('a b c #').pipe(minibatch(2))).toBe('-x-#', { x: ['a', 'b'] });
    });
  });

  it('unsubscribing cancels the pending timer', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('a---').pipe(minibatch(5, 10)), '^ 3ms !').toBe('-');
    });
  });

  it('refuses a bad size or wait with a ConfigError', () => {
    expect(() => minibatch(0)).toThrow(ConfigError);
    expect(() => minibatch(2.5)).toThrow(ConfigError);
    expect(() => minibatch(2, -1)).toThrow(ConfigError);
  });

  it('never loses, repeats or reorders items and never exceeds the size (property)', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.integer(), { maxLength: 200 }), fc.integer({ min: 1, max: 17 }), async (items, size) => {
      const batches = await lastValueFrom(from(items).pipe(minibatch(size, 5), toArray()));
      expect(batches.flat()).toEqual(items);
      expect(batches.every((b) => b.length >= 1 && b.length <= size)).toBe(true);
      expect(batches.slice(0, -1).every((b) => b.length === size)).toBe(true);
    }));
  });

  it('with timed gaps the concatenation is still the input, in order (property, virtual time)', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer(), fc.integer({ min: 0, max: 30 })), { maxLength: 60 }), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 20 }), (timed, size, wait) => {
      const out: number[][] = [];
      scheduler().run(({ cold }) => {
        const marble = timed.length === 0 ? '|' : `${timed.map(([, gap]) => `${gap}ms a`).join(' ')} |`;
        cold(marble, { a: 0 }).pipe(map((_, k) => timed[k][0]), minibatch(size, wait)).subscribe((batch) => out.push(batch));
      });
      expect(out.flat()).toEqual(timed.map(([value]) => value));
      expect(out.every((b) => b.length >= 1 && b.length <= size)).toBe(true);
    }));
  });
});
