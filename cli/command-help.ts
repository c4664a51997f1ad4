/** What `vbstream <command> --help` prints: one line, the usage, every option with its default, one example. */
export interface CommandHelp {
  readonly summary: string;
  readonly usage: string;
  readonly options: readonly (readonly [flag: string, description: string])[];
  readonly example: string;
}

/** Every command's help, in the order `vbstream help` lists them. */
export const COMMAND_HELP: { readonly [command: string]: CommandHelp } = {
  run: {
    summary: 'run a streaming pipeline from a config file (or the embedded default: synthetic data, vb-logit-online)',
    usage: 'vbstream run [--config pipeline.json] [--resume] [--metrics-port <port> | --no-metrics] [--rate <records/s>]',
    options: [
      ['--config <file>', 'pipeline declaration (JSON; schema in schema/pipeline-config.schema.json); paths in it are relative to the file. Default: the embedded synthetic pipeline'],
      ['--resume', 'file sources: start from the latest snapshot in snapshots.dir (its position and posterior). Kafka sources always resume from the snapshot topic'],
      ['--metrics-port <port>', 'serve /metrics, /healthz, /readyz on this port (0: a free one). Default: metrics.port of the config, 9464'],
      ['--no-metrics', 'serve no metrics'],
      ['--rate <records/s>', 'synthetic sources: emit at most this many records per second. Default: as fast as the pipeline takes them'],
    ],
    example: 'vbstream run --config examples/pipeline.json --metrics-port 9464',
  },
  fit: {
    summary: 'fit a model on a CSV file in one batch; write the posterior (and predictions) as JSON',
    usage: 'vbstream fit --model <id> --input <train.csv> --out <posterior.json> [--predict <test.csv> --predictions <pred.json>] [--options \'<json>\'] [--label <column>]',
    options: [
      ['--model <id>', 'model family id (see `vbstream models`)'],
      ['--input <file>', 'training CSV with a header; every column but the label is a feature'],
      ['--out <file>', 'where the posterior goes (JSON, written atomically)'],
      ['--predict <file>', 'a test CSV to predict (same feature columns; label optional)'],
      ['--predictions <file>', 'where the predictions go (with --predict)'],
      ['--options <json>', 'family options as a JSON object (see `vbstream models`). Default: {}'],
      ['--label <column>', 'label column. Default: y'],
    ],
    example: 'vbstream fit --model vb-logit --input train.csv --out posterior.json --predict test.csv --predictions pred.json',
  },
  models: {
    summary: 'list every model family: id, task, how it learns a stream, options',
    usage: 'vbstream models [<id>] [--json]',
    options: [
      ['<id>', 'show one family only'],
      ['--json', 'print JSON instead of text'],
    ],
    example: 'vbstream models vb-logit-online',
  },
  'kafka:produce': {
    summary: 'write a CSV/JSON-lines file or a synthetic stream to a Kafka topic as {"x":[...],"y":...} JSON values',
    usage: 'vbstream kafka:produce --brokers host:port --topic T [--partitions P] [--kafka-client kafkajs|platformatic] (--file data.csv|data.jsonl [--label y] [--features a,b,c] | --synthetic N [--kind logistic|linear] [--dim D] [--seed S])',
    options: [
      ['--brokers <list>', 'bootstrap brokers, comma-separated host:port'],
      ['--topic <name>', 'topic to write (created if missing)'],
      ['--partitions <P>', 'partitions of a new topic; record i goes to partition i mod P. Default: 1'],
      ['--kafka-client <name>', 'Kafka client library: kafkajs or platformatic (@platformatic/kafka). Default: kafkajs'],
      ['--file <path>', 'records from a CSV (header) or .jsonl file'],
      ['--label <column>', 'label column or field. Default: y'],
      ['--features <a,b,c>', 'feature columns or fields, in order. Default: all but the label'],
      ['--synthetic <N>', 'N seeded synthetic records instead of a file'],
      ['--kind <logistic|linear>', 'synthetic task. Default: logistic'],
      ['--dim <D>', 'synthetic features. Default: 10'],
      ['--seed <S>', 'synthetic seed. Default: 1'],
    ],
    example: 'vbstream kafka:produce --brokers 127.0.0.1:9092 --topic events --partitions 3 --synthetic 100000 --dim 10',
  },
  'kafka:combine': {
    summary: 'merge the per-partition posteriors of a Kafka-fed additive model into <model>/global',
    usage: 'vbstream kafka:combine --brokers host:port --topic T --family <id> --dim D [--model NAME] [--snapshot-topic T] [--every-ms 1000] [--family-options \'<json>\'] [--kafka-client kafkajs|platformatic]',
    options: [
      ['--brokers <list>', 'bootstrap brokers, comma-separated host:port'],
      ['--topic <name>', 'the input topic the learners read'],
      ['--family <id>', 'the learners\' model family (must be additive: vb-linear, vb-linear-ard, direct, …)'],
      ['--dim <D>', 'features per record'],
      ['--model <name>', 'snapshot key prefix. Default: <family>@<topic>, as vbstream run names it'],
      ['--snapshot-topic <name>', 'compacted snapshot topic. Default: <topic>.snapshots'],
      ['--every-ms <ms>', 'how often to merge and publish when something changed. Default: 1000'],
      ['--family-options <json>', 'the learners\' family options (the prior must match). Default: {}'],
      ['--kafka-client <name>', 'Kafka client library: kafkajs or platformatic (@platformatic/kafka). Default: kafkajs'],
    ],
    example: 'vbstream kafka:combine --brokers 127.0.0.1:9092 --topic events --family vb-linear --dim 10',
  },
  'bandit:evaluate': {
    summary: 'off-policy evaluation: IPS, SNIPS and doubly-robust estimates (with intervals) of a bandit policy\'s value from logged decisions',
    usage: 'vbstream bandit:evaluate --decisions <file.jsonl> --policy <thompson|linucb|epsilon-greedy> [--options \'<json>\'] [--reward-model \'<json>\'] [--level 0.95] [--json]',
    options: [
      ['--decisions <file>', 'JSON lines {"context": [...], "arm": a, "propensity": p, "reward": r}: what the logging policy played, with P(arm | context) > 0'],
      ['--policy <name>', 'the candidate: thompson, linucb or epsilon-greedy; it learns each logged decision after scoring it (progressive evaluation)'],
      ['--options <json>', 'the candidate\'s options (vbstream/bandit: seed, rewards, model, exploration, alpha, epsilon, …). Default: {} (arms from the log, seed 1)'],
      ['--reward-model <json>', 'the doubly-robust reward model, {"family": id, "options": {...}}, one per arm, cross-fitted. Default: {"family": "vb-linear"}'],
      ['--level <p>', 'coverage of the normal-approximation intervals. Default: 0.95'],
      ['--json', 'print JSON instead of text'],
    ],
    example: 'vbstream bandit:evaluate --decisions decisions.jsonl --policy thompson --options \'{"rewards": "binary", "seed": 7}\'',
  },
};

/** The full help of a command, as `vbstream <command> --help` prints it. */
export function formatCommandHelp(command: string): string {
  const help = COMMAND_HELP[command];
  const width = Math.max(...help.options.map(([flag]) => flag.length));
  const options = help.options.map(([flag, description]) => `  ${flag.padEnd(width)}  ${description}`).join('\n');
  return `vbstream ${command} — ${help.summary}\n\nusage: ${help.usage}\n\noptions:\n${options}\n\nexample:\n  ${help.example}\n`;
}

/** The usage line of a command (for error messages). */
export function usageOf(command: string): string {
  return `usage: ${COMMAND_HELP[command].usage}`;
}
