import { BanditMetrics } from '../../bandit/kafka/bandit-metrics.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { OutcomeMetrics } from '../../serve/outcome-metrics.js';

const PROMQL_WORDS = new Set(['sum', 'min', 'max', 'by', 'on', 'and', 'rate', 'increase', 'delta', 'histogram_quantile', 'le', 'model', 'partition', 'reason', 'topic', 'label_values', 'pipeline', 'instance', 'outcome', 'route', 'status', 'job', 'condition', 'up']);

/** The vbstream metric names a PromQL expression refers to (identifiers followed by `{` or `[` that are not PromQL words or labels, or starting with vbstream_). */
export function metricNames(expr: string): string[] {
  return [...expr.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(?=\{|\[)/g)].map((m) => m[1]).filter((n) => !PROMQL_WORDS.has(n))
    .concat([...expr.matchAll(/\bvbstream_[a-z0-9_]+/g)].map((m) => m[0]));
}

/** Every series name vbstream's registries export (the pipeline's, the bandit services' and the outcome learner's), histograms with their `_bucket`, `_sum` and `_count`. */
export async function exportedNames(): Promise<Set<string>> {
  const metrics = new PipelineMetrics();
  const learner = new PipelineMetrics();
  new BanditMetrics(metrics.registry, 'decider'); // the bandit services serve theirs beside the pipeline's: a decider's …
  new BanditMetrics(learner.registry, 'learner'); // … and the bandit learner's
  new OutcomeMetrics(metrics.registry, 'classification'); // so does the outcome learner
  const names = new Set<string>();
  for (const metric of [...await metrics.registry.getMetricsAsJSON(), ...await learner.registry.getMetricsAsJSON()]) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(metric.name + suffix);
  }
  return names;
}
