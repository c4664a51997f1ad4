import { describe, expect, it } from 'vitest';
import { DeadLetterShare } from '../../../connectors/kafka/dead-letter-share.js';
import { ConfigError } from '../../../src/core/config-error.js';

describe('DeadLetterShare', () => {
  it('raises the alarm at the end of a window over the share, once, and clears it at the end of one under it', () => {
    const share = new DeadLetterShare({ share: 0.5, window: 100 });
    expect(share.observe(60, 0)).toBeUndefined(); // the window is not over
    share.letter('bad-shape', 'feature field age is missing', '60');
    share.letter('bad-json', 'Unexpected token', '61');
    share.letter('bad-shape', 'feature field age is missing', '62');
    const healthy = share.observe(40, 3);
    expect(healthy).toMatchObject({ raised: false, changed: false, share: 0.03, records: 100, deadLetters: 3 });
    for (let i = 0; i < 120; i++) share.letter('bad-shape', 'feature field age is missing', String(100 + i));
    const raised = share.observe(120, 120);
    expect(raised).toEqual({
      raised: true, changed: true, share: 1, records: 120, deadLetters: 120,
      reasons: [{ reason: 'bad-shape', count: 120 }], example: { reason: 'bad-shape', detail: 'feature field age is missing', offset: '100' },
    });
    expect(share.observe(100, 100)).toMatchObject({ raised: true, changed: false });
    expect(share.observe(100, 10)).toMatchObject({ raised: false, changed: true, share: 0.1, example: undefined });
  });

  it('defaults to 10% of 1,000 records; refuses a share outside (0, 1] and a window that is not a positive integer', () => {
    const share = new DeadLetterShare();
    expect([share.threshold, share.window]).toEqual([0.1, 1_000]);
    expect(() => new DeadLetterShare({ share: 0 })).toThrow(ConfigError);
    expect(() => new DeadLetterShare({ share: 1.5 })).toThrow(ConfigError);
    expect(() => new DeadLetterShare({ window: 2.5 })).toThrow(ConfigError);
  });
});
