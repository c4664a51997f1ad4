import { describe, expect, it } from 'vitest';
import { runVbstream } from '../helpers/run-vbstream.js';

const LEARN = ['bandit:learn', '--brokers', '127.0.0.1:1', '--decisions', 'd', '--rewards', 'r', '--model', 'm', '--state-topic', 's', '--reward-window-ms', '1000'];
const DECIDE = ['bandit:decide', '--brokers', '127.0.0.1:1', '--decisions', 'd', '--rewards', 'r', '--policy-topic', 's', '--model', 'm'];

/** The bandit services refuse bad options before they connect to anything (the broker here does not exist). */
describe('vbstream bandit:learn and bandit:decide options', () => {
  it.each([
    [[...LEARN.slice(0, 5)], /--brokers, --decisions, --rewards, --model, --state-topic, --policy and --reward-window-ms are required\nusage: vbstream bandit:learn/],
    [[...LEARN, '--policy', '{"kind": "thompson"'], /--policy is not valid JSON/],
    [[...LEARN, '--policy', '{"kind": "ucb1", "arms": 2, "dim": 1}'], /unknown policy kind "ucb1"/],
    [[...LEARN, '--policy', '{"kind": "thompson", "arms": 0, "dim": 1, "seed": 1}'], /arms/],
    [[...LEARN, '--policy', '{"kind": "lin-ucb", "arms": 2, "dim": 1}', '--partitions', '0'], /--partitions must be an integer ≥ 1/],
    [[...LEARN, '--policy', '{"kind": "lin-ucb", "arms": 2, "dim": 1}', '--expired-reward', 'none'], /--expired-reward must be a finite number/],
    [[...LEARN, '--policy', '{"kind": "lin-ucb", "arms": 2, "dim": 1}', '--no-metrics', '--metrics-port', '9000'], /contradict each other/],
    [[...LEARN, '--policy', '{"kind": "lin-ucb", "arms": 2, "dim": 1}', '--metrics-port', '70000'], /--metrics-port must be an integer from 0/],
    [DECIDE.slice(0, 3), /--brokers, --decisions, --rewards, --policy-topic and --model are required\nusage: vbstream bandit:decide/],
    [[...DECIDE, '--port', '99999'], /--port must be an integer from 0 \(a free port\) to 65535/],
    [[...DECIDE, '--max-body-bytes', '1.5'], /--max-body-bytes must be an integer ≥ 1/],
    [[...DECIDE, '--instance-id', 'a-b'], /--instance-id must be letters, digits/],
    [[...DECIDE, '--request-timeout-ms', '0'], /--request-timeout-ms must be an integer ≥ 1/],
    [[...DECIDE, '--shutdown-timeout-ms', 'soon'], /--shutdown-timeout-ms must be an integer ≥ 1/],
    [[...LEARN, '--policy', '{"kind": "lin-ucb", "arms": 2, "dim": 1}', '--shutdown-timeout-ms', '0.5'], /--shutdown-timeout-ms must be an integer ≥ 1/],
    [[...LEARN, '--policy', '{"kind": "lin-ucb", "arms": 2, "dim": 1}', '--no-metrics', '--metrics-allowed-hosts', 'a'], /contradict each other/],
  ])('%j exits 1 naming the problem', (args, message) => {
    const result = runVbstream(...args);
    expect(result.stderr).toMatch(message);
    expect(result.code).toBe(1);
  });

  it('an unknown option is a usage error (exit 2)', () => {
    expect(runVbstream('bandit:decide', '--prot', '80')).toMatchObject({ code: 2 });
  });

  it('takes linucb as an alias of the policy kind lin-ucb, with a note', () => {
    const result = runVbstream(...LEARN, '--policy', '{"kind": "linucb", "arms": 2, "dim": 1}', '--partitions', '0');
    expect(result.stderr).toMatch(/^note: --policy kind linucb is read as lin-ucb, its canonical spelling\n/);
    expect(result.stderr).toMatch(/--partitions must be an integer ≥ 1/);
    expect(result.code).toBe(1);
  });
});
