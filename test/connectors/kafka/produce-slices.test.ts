import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitsOneRequest, produceSlices } from '../../../connectors/kafka/produce-slices.js';
import type { PortOutgoingMessage } from '../../../connectors/kafka/kafka-port.js';

const sizeOf = (m: PortOutgoingMessage): number => 24 + Buffer.byteLength((m.key as string | undefined) ?? '') + Buffer.byteLength(m.value as string);

describe('produceSlices', () => {
  it('keeps every record once, in order, each slice within the count and about 512 KiB (a larger record alone)', () => {
    fc.assert(fc.property(fc.array(fc.record({ key: fc.option(fc.string(), { nil: undefined }), length: fc.oneof(fc.nat(2_000), fc.nat(700_000)) }), { maxLength: 300 }), fc.integer({ min: 1, max: 50 }), (specs, maxCount) => {
      const messages: PortOutgoingMessage[] = specs.map(({ key, length }, i) => ({ key, value: `${i}:`.padEnd(length, 'v') }));
      const slices = produceSlices(messages, maxCount);
      expect(slices.flat()).toEqual(messages);
      for (const slice of slices) {
        expect(slice.length).toBeGreaterThan(0);
        expect(slice.length).toBeLessThanOrEqual(maxCount);
        const bytes = slice.reduce((n, m) => n + sizeOf(m), 0);
        if (slice.length > 1) expect(bytes).toBeLessThanOrEqual(524_288);
      }
      for (let k = 1; k < slices.length; k++) {
        const previous = slices[k - 1];
        const room = previous.length < maxCount && previous.reduce((n, m) => n + sizeOf(m), 0) + sizeOf(slices[k][0]) <= 524_288;
        expect(room, 'a slice ends only when the next record would not fit').toBe(false);
      }
    }), { numRuns: 200 });
  });

  it('counts header names and values, repeated ones included, and UTF-8 bytes of strings', () => {
    const header = 'h'.repeat(100_000);
    const withHeaders: PortOutgoingMessage = { value: 'é'.repeat(100_000), headers: { a: [header, Buffer.alloc(100_000)], b: undefined } };
    expect(produceSlices([withHeaders, withHeaders])).toHaveLength(2); // 2 × (200,000 + 200,000 + framing) > 512 KiB
    expect(produceSlices([{ value: 'x'.repeat(200_000) }, { value: 'x'.repeat(200_000) }])).toHaveLength(1);
  });

  it('fitsOneRequest answers whether produceSlices makes one slice, to the byte (512 KiB of records together: one; a byte more: two)', () => {
    fc.assert(fc.property(fc.array(fc.record({ key: fc.option(fc.string(), { nil: undefined }), length: fc.oneof(fc.nat(2_000), fc.nat(700_000)) }), { maxLength: 50 }), (specs) => {
      const messages: PortOutgoingMessage[] = specs.map(({ key, length }, i) => ({ key, value: `${i}:`.padEnd(length, 'v') }));
      expect(fitsOneRequest(messages)).toBe(produceSlices(messages).length === 1);
    }), { numRuns: 200 });
    const pair = (extra: number): PortOutgoingMessage[] => [{ value: 'a'.repeat(262_120) }, { value: 'b'.repeat(262_120 + extra) }]; // 2 × (24 + 262,120) = 524,288
    expect([fitsOneRequest(pair(0)), produceSlices(pair(0)).length]).toEqual([true, 1]);
    expect([fitsOneRequest(pair(1)), produceSlices(pair(1)).length]).toEqual([false, 2]);
    expect(fitsOneRequest([])).toBe(false);
    expect(fitsOneRequest([{ value: 'x'.repeat(700_000) }])).toBe(true);
  });
});
