import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportedNames, metricNames } from '../helpers/exported-metrics.js';
import { repoRoot } from '../helpers/reference.js';

interface Panel {
  id: number;
  type: string;
  title: string;
  targets?: { expr: string; refId: string; datasource?: { uid: string } }[];
}

const dashboard = JSON.parse(readFileSync(join(repoRoot, 'monitoring/grafana-dashboard.json'), 'utf8')) as {
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: { name: string; type: string; query: unknown }[] };
};
const queried = dashboard.panels.filter((p) => p.type !== 'row');
describe('monitoring/grafana-dashboard.json', () => {
  it('is an importable dashboard: a uid, unique panel ids, a Prometheus datasource variable used by every query', () => {
    expect(dashboard.uid).toBe('vbstream-pipeline');
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(dashboard.templating.list.find((v) => v.name === 'datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' });
    expect(queried.length).toBeGreaterThanOrEqual(15);
    for (const panel of queried) {
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) expect(target.datasource?.uid, panel.title).toBe('${datasource}');
    }
  });

  it('every query names only metrics the code exports', async () => {
    const exported = await exportedNames();
    const expressions = queried.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })))
      .concat(dashboard.templating.list.filter((v) => v.type === 'query').map((v) => ({ panel: `variable ${v.name}`, expr: (v.query as { query: string }).query })));
    for (const { panel, expr } of expressions) {
      const names = metricNames(expr);
      expect(names.length, `${panel}: ${expr}`).toBeGreaterThan(0);
      for (const name of names) expect(exported.has(name), `${panel}: ${name} is not exported`).toBe(true);
    }
  });

  it('has a panel for every metric vbstream exports (Node defaults aside), so a new metric needs one', async () => {
    const all = queried.flatMap((p) => (p.targets ?? []).map((t) => t.expr)).join('\n');
    const own = [...await exportedNames()].filter((name) => !/^vbstream_(process|nodejs)_|_(bucket|sum|count)$/.test(name));
    expect(own).toContain('vbstream_posterior_condition_number');
    for (const name of own) expect(all, `${name} is on no panel`).toMatch(new RegExp(`\\b${name}(_bucket|_sum|_count)?\\b`));
  });

  it('covers throughput, latency, the learning curve, calibration, lag and dead letters', () => {
    const all = queried.flatMap((p) => (p.targets ?? []).map((t) => t.expr)).join('\n');
    for (const name of ['vbstream_records_total', 'vbstream_update_duration_seconds_bucket', 'vbstream_prequential_log_loss', 'vbstream_prequential_brier_score',
      'vbstream_calibration_predicted_probability_bucket', 'vbstream_kafka_consumer_lag', 'vbstream_dead_letters_total', 'vbstream_nodejs_eventloop_lag_p99_seconds']) {
      expect(all).toContain(name);
    }
  });

  it('"Mean reward" is the mean of the rewards learned in the interval: never above 1 for 0/1 rewards, also in a learner\'s first minute (promtool)', () => {
    const panel = queried.find((p) => p.title === 'Mean reward');
    const expr = panel!.targets![0].expr.replaceAll('$pipeline', '.*').replaceAll('$__rate_interval', '1m');
    const dir = mkdtempSync(join(tmpdir(), 'vbstream-mean-reward-'));
    try {
      // a learner scraped every 15 s from its start (its series appear at the first scrape, 15 s in) learning 10 rewards per scrape
      const learner = (rewarded: string, sum: string) => [
        { series: 'vbstream_bandit_rewards_total{pipeline="shop", outcome="rewarded"}', values: rewarded },
        { series: 'vbstream_bandit_cumulative_reward{pipeline="shop"}', values: sum },
      ];
      writeFileSync(join(dir, 'rules.yml'), JSON.stringify({ groups: [{ name: 'dashboard', rules: [{ record: 'mean_reward', expr }] }] }));
      writeFileSync(join(dir, 'test.yml'), JSON.stringify({
        rule_files: ['rules.yml'],
        evaluation_interval: '15s',
        tests: [
          { name: 'half the rewards 1', interval: '15s', input_series: learner('_ 1 11 21 31 41 51 61 71 81', '_ 1 6 11 16 21 26 31 36 41'),
            promql_expr_test: [{ expr: 'mean_reward > 0.5000001 or mean_reward < 0.4999999', eval_time: '1m', exp_samples: [] }, { expr: 'mean_reward', eval_time: '2m', exp_samples: [{ labels: 'mean_reward', value: 0.5 }] }] },
          { name: 'every reward 1', interval: '15s', input_series: learner('_ 1 11 21 31 41 51 61 71 81', '_ 1 11 21 31 41 51 61 71 81'),
            promql_expr_test: [{ expr: 'mean_reward > 1', eval_time: '1m', exp_samples: [] }, { expr: 'mean_reward', eval_time: '2m', exp_samples: [{ labels: 'mean_reward', value: 1 }] }] },
        ],
      }));
      const result = spawnSync('promtool', ['test', 'rules', 'test.yml'], { encoding: 'utf8', cwd: dir });
      if (result.error !== undefined) throw new Error(`promtool is not installed: run the project set-up, bash scripts/setup.sh (Debian package prometheus): ${result.error.message}`);
      expect(`${result.stdout}${result.stderr}`).toContain('SUCCESS');
      expect(result.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
