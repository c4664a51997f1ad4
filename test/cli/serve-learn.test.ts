import { describe, expect, it } from 'vitest';
import { runVbstream } from '../helpers/run-vbstream.js';

const LEARN = ['serve:learn', '--brokers', '127.0.0.1:1', '--predictions', 'p', '--outcomes', 'o', '--model', 'm', '--state-topic', 's', '--label-window-ms', '1000'];

/** The outcome learner refuses bad options before it connects to anything (the broker here does not exist). */
describe('vbstream serve:learn options', () => {
  it.each([
    [[...LEARN.slice(0, 5)], /--brokers, --predictions, --outcomes, --model, --state-topic, --family, --dim and --label-window-ms are required\nusage: vbstream serve:learn/],
    [[...LEARN, '--family', 'vb-logit-onlin', '--dim', '3'], /unknown model family "vb-logit-onlin"; did you mean "vb-logit-online"/],
    [[...LEARN, '--family', 'vb-logit-online', '--dim', '0'], /--dim must be an integer ≥ 1/],
    [[...LEARN, '--family', 'vb-logit-online', '--dim', '3', '--expired-label', '0.5'], /expiredLabel: binary label must be 0\/1 or -1\/1/],
    [[...LEARN, '--family', 'vb-linear', '--dim', '3', '--family-options', '{"priorPrecison": 1}'], /priorPrecison/],
    [[...LEARN, '--family', 'vb-linear', '--dim', '3', '--label-window-ms', '0'], /--label-window-ms must be/],
    [[...LEARN, '--family', 'vb-linear', '--dim', '3', '--no-metrics', '--metrics-port', '9000'], /contradict each other/],
  ])('%j exits 1 naming the problem', (args, message) => {
    const result = runVbstream(...args);
    expect(result.stderr).toMatch(message);
    expect(result.code).toBe(1);
  });
});
