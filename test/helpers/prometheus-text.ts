/** One sample of the Prometheus text format: metric name, labels and value. */
export interface Sample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

/** Parses the Prometheus text exposition format (comments skipped). */
export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]] = pair[2];
    samples.push({ name: match[1], labels, value: match[3] === '+Inf' ? Infinity : match[3] === '-Inf' ? -Infinity : Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample named `name` whose labels include `labels`; throws if none or several match. */
export function sampleValue(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length !== 1) throw new Error(`expected one sample ${name}${JSON.stringify(labels)}, found ${found.length}`);
  return found[0].value;
}
