import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportedNames, metricNames } from '../helpers/exported-metrics.js';
import { repoRoot } from '../helpers/reference.js';

/**
 * monitoring/alerts.yml, the alerting rules that ship beside the dashboard: valid for Prometheus
 * (`promtool check rules`, from Debian's prometheus package that the set-up installs), each alert
 * firing on the series that should raise it and quiet on those that should not (`promtool test
 * rules` on test/monitoring/alerts.test.yml), on metrics the code exports.
 */
const RULES = join(repoRoot, 'monitoring/alerts.yml');
const promtool = (...args: string[]): { status: number | null; output: string } => {
  const result = spawnSync('promtool', args, { encoding: 'utf8', cwd: repoRoot });
  if (result.error !== undefined) throw new Error(`promtool is not installed: run the project set-up, bash scripts/setup.sh (Debian package prometheus): ${result.error.message}`);
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
};

describe('monitoring/alerts.yml', () => {
  it('is valid for Prometheus (promtool check rules)', () => {
    const { status, output } = promtool('check', 'rules', RULES);
    expect(output).toMatch(/SUCCESS: \d+ rules found/);
    expect(status).toBe(0);
  });

  it('each alert fires when it should and not otherwise (promtool test rules)', () => {
    const { status, output } = promtool('test', 'rules', 'test/monitoring/alerts.test.yml');
    expect(output).toContain('SUCCESS');
    expect(status).toBe(0);
  });

  it('watches dead letters, lag, snapshot age, readiness, the brokers, the event loop and decide errors and latency, on metrics the code exports', async () => {
    const text = readFileSync(RULES, 'utf8');
    const alerts = [...text.matchAll(/- alert: (\w+)\n\s+expr: (\|\n(?:\s{10,}.*\n)+|.*\n)/g)].map((m) => ({ name: m[1], expr: m[2] }));
    expect(alerts.map((a) => a.name).sort()).toEqual(['VbstreamBanditDeadLetters', 'VbstreamDeadLetterRateHigh', 'VbstreamDeadLetterShareHigh', 'VbstreamDecideErrors', 'VbstreamDecideSlow', 'VbstreamDown',
      'VbstreamEventLoopBlocked', 'VbstreamKafkaBrokersUnreachable', 'VbstreamKafkaLagGrowing', 'VbstreamNotReady', 'VbstreamSnapshotStale']);
    const exported = await exportedNames();
    for (const { name, expr } of alerts) {
      for (const metric of metricNames(expr)) expect(exported.has(metric), `${name} watches ${metric}`).toBe(true);
    }
    const tested = readFileSync(join(repoRoot, 'test/monitoring/alerts.test.yml'), 'utf8');
    for (const { name } of alerts) expect(tested, `${name} has a promtool test`).toContain(`alertname: ${name}`);
  });
});
