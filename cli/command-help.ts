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
    summary: 'run a streaming pipeline from a config file (or the embedded default: synthetic data, adf-logit)',
    usage: 'vbstream run [--config pipeline.json] [--resume] [--metrics-port <port> | --no-metrics] [--rate <records/s>]',
    options: [
      ['--config <file>', 'pipeline declaration (JSON; schema in schema/pipeline-config.schema.json); paths in it are relative to the file. Default: the embedded synthetic pipeline'],
      ['--resume', 'file sources: start from the latest snapshot in snapshots.dir (its position and posterior). Kafka sources always resume from the snapshot topic'],
      ['--metrics-port <port>', 'serve /metrics, /healthz, /readyz and the live page / on this port (0: a free one). Default: metrics.port of the config, 9464'],
      ['--no-metrics', 'serve no metrics'],
      ['--rate <records/s>', 'synthetic sources: emit at most this many records per second. Default: as fast as the pipeline takes them'],
    ],
    example: 'vbstream run --config examples/pipeline.json --metrics-port 9464',
  },
  fit: {
    summary: 'fit a model on a CSV file in one batch; write the posterior (and predictions) as JSON',
    usage: 'vbstream fit --model <id> --input <train.csv> --out <posterior.json> [--predict <test.csv> --predictions <pred.json>] [--options \'<json>\'] [--label <column>] [--intercept]',
    options: [
      ['--model <id>', 'model family id (see `vbstream models`)'],
      ['--input <file>', 'training CSV with a header; every column but the label is a feature'],
      ['--out <file>', 'where the posterior goes (JSON, written atomically)'],
      ['--predict <file>', 'a test CSV to predict (same feature columns; label optional)'],
      ['--predictions <file>', 'where the predictions go (with --predict)'],
      ['--options <json>', 'family options as a JSON object (see `vbstream models`). Default: {}'],
      ['--label <column>', 'label column. Default: y'],
      ['--intercept', 'put a constant 1 before the features (the first weight, named intercept in the posterior\'s features, is the intercept). Default: the columns as given'],
    ],
    example: 'vbstream fit --model vb-logit --input train.csv --out posterior.json --predict test.csv --predictions pred.json',
  },
  select: {
    summary: 'rank candidate models (family, options, features) on a CSV file by their variational lower bound on the log evidence',
    usage: 'vbstream select --input <train.csv> (--candidates <file.json | json> | --model <id> --degrees <lo>..<hi> [--columns a,b] [--options \'<json>\']) [--label <column>] [--workers N] [--json]',
    options: [
      ['--input <file>', 'training CSV with a header; every column but the label is a feature'],
      ['--candidates <file|json>', 'a JSON array of {"name"?, "family", "options"?, "features"?}; features: {"type": "identity"} (default), {"type": "columns", "columns": [...]}, {"type": "polynomial", "degree": k, "columns"?: [...]}, {"type": "rbf", "centres": [[...]], "lengthscale": l, "columns"?: [...]}; columns by index or name'],
      ['--model <id>', 'instead of --candidates: one polynomial candidate of this family per degree of --degrees'],
      ['--degrees <lo>..<hi>', 'with --model: the polynomial degrees to compare (bias, x, …, x^k of each column)'],
      ['--columns <a,b>', 'with --model: the feature columns the polynomial uses. Default: all'],
      ['--options <json>', 'with --model: the family options of every candidate. Default: {}'],
      ['--label <column>', 'label column. Default: y'],
      ['--workers <N>', 'candidates fitted at once, each in its own worker thread. Default: the available cores, at most the candidates'],
      ['--json', 'print JSON instead of the table'],
    ],
    example: 'vbstream select --input train.csv --model vb-linear --degrees 0..9 --columns x',
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
    summary: 'write a CSV/JSON-lines file or a synthetic stream to a Kafka topic as JSON values: {"x":[...],"y":...}, or named fields with --features',
    usage: 'vbstream kafka:produce --brokers host:port --topic T [--partitions P] [--kafka-client kafkajs|platformatic] [--features a,b,c] [--label y] (--file data.csv|data.jsonl | --synthetic N [--kind logistic|linear] [--dim D] [--seed S])',
    options: [
      ['--brokers <list>', 'bootstrap brokers, comma-separated host:port'],
      ['--topic <name>', 'topic to write (created if missing)'],
      ['--partitions <P>', 'partitions of a new topic; record i goes to partition i mod P. Default: 1'],
      ['--kafka-client <name>', 'Kafka client library: platformatic (@platformatic/kafka) or kafkajs. Default: platformatic'],
      ['--file <path>', 'records from a CSV (header) or .jsonl file'],
      ['--label <column>', 'label column of the file, and the label field written with --features. Default: y'],
      ['--features <a,b,c>', 'write named fields {"a":…,"b":…,"c":…,"<label>":…} instead of {"x":[...],"y":...}: a file\'s columns of these names, in order; a synthetic stream\'s features after its constant bias column (one per name; learn the bias with schema.intercept). Default: all of a file\'s columns but the label, as x'],
      ['--synthetic <N>', 'N seeded synthetic records instead of a file'],
      ['--kind <logistic|linear>', 'synthetic task. Default: logistic'],
      ['--dim <D>', 'synthetic features, the constant bias column first (without --features). Default: 5'],
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
      ['--kafka-client <name>', 'Kafka client library: platformatic (@platformatic/kafka) or kafkajs. Default: platformatic'],
    ],
    example: 'vbstream kafka:combine --brokers 127.0.0.1:9092 --topic events --family vb-linear --dim 10',
  },
  serve: {
    summary: 'the scoring service: POST /predict answers mean, variance and a credible interval from the latest posterior of a vbstream run (hot-swapped), optionally logging every answer to Kafka',
    usage: 'vbstream serve (--config pipeline.json [--partition P | --global] | --snapshot-dir DIR | --brokers host:port --snapshot-topic T --model NAME (--partition P | --global)) [--family <id>] [--dim D] [--features a,b,c] [--max-abs-input N] [--host 127.0.0.1] [--port 8080] [--level 0.9] [--max-rows 1000] [--max-body-bytes 1048576] [--predictions-topic T [--outcomes-topic T] [--partitions N] [--brokers host:port]] [--instance-id ID] [--request-timeout-ms 10000] [--allowed-hosts a,b] [--shutdown-timeout-ms 30000] [--poll-ms 500] [--kafka-client kafkajs|platformatic]',
    options: [
      ['--config <file>', 'a vbstream run pipeline: its family, schema.features (or the CSV header), schema.maxAbsInput and snapshots (snapshots.dir for file sources; for a Kafka source its snapshot topic and model <family>@<topic>, with --partition or --global)'],
      ['--partition <p>', 'Kafka snapshot topic: serve partition p\'s model (key <model>/<p>, version <p>:<nextOffset>)'],
      ['--global', 'Kafka snapshot topic: serve the merged posterior (key <model>/global, from kafka:combine or an outcome learner; version its p:offset,…)'],
      ['--snapshot-dir <dir>', 'without --config: the snapshot directory of a vbstream run (version file:<n>)'],
      ['--brokers <list>', 'bootstrap brokers, comma-separated host:port: of --snapshot-topic and --predictions-topic. With a --config of a Kafka source: instead of its brokers (its TLS and SASL settings stay)'],
      ['--kafka-client <name>', 'Kafka client library: platformatic (@platformatic/kafka) or kafkajs. Default: platformatic'],
      ['--snapshot-topic <topic>', 'without --config: the compacted snapshot topic (vbstream run: <topic>.snapshots)'],
      ['--model <name>', 'without --config: the snapshot keys\' model name (vbstream run: <family>@<topic>)'],
      ['--family <id>', 'the family served; a snapshot of another is refused (one log line; the last good posterior keeps serving). Default: the first snapshot\'s'],
      ['--dim <D>', 'features served; a snapshot of another width is refused. Default: the length of --features, else the first snapshot\'s'],
      ['--features <a,b,c>', 'the features\' names by position, for {"features": {...}} requests. Default: none (positional x only)'],
      ['--max-abs-input <N>', 'largest |feature| (and |label| of an outcome) accepted; beyond it 400. Default: 1e12'],
      ['--host <host>', 'interface to listen on (0.0.0.0 behind a load balancer). Default: 127.0.0.1'],
      ['--port <port>', 'HTTP port (0: a free one). Default: 8080'],
      ['--level <p>', 'credible-interval mass of a request that gives no "level". Default: 0.9'],
      ['--max-rows <N>', 'most rows of a {"rows": [...]} batch; more: 400. Default: 1000'],
      ['--max-body-bytes <N>', 'largest request body; a larger one is answered 413. Default: 1048576'],
      ['--predictions-topic <topic>', 'log every answer there (keyed by prediction id, acks from all replicas) before returning it; a failed write answers 503 and /readyz says so. Created if missing'],
      ['--outcomes-topic <topic>', 'with --predictions-topic: POST /outcome {"predictionId", "y"} writes there, keyed by the id (co-partitioned; created if missing)'],
      ['--partitions <N>', 'partitions of the predictions and outcomes topics when this creates them (the outcome learner\'s). Default: 1'],
      ['--instance-id <id>', 'prefix of the prediction ids (<id>-<n>). Default: 12 random hex digits, new at every start'],
      ['--request-timeout-ms <ms>', 'longest a request may take once its body is in (predictions logged included): past it 503, retriable, Retry-After: 1. Default: 10000'],
      ['--allowed-hosts <a,b>', 'names the service answers to in the Host header besides --host, localhost and IP addresses (others: 421); * for any. Default: none'],
      ['--shutdown-timeout-ms <ms>', 'on SIGTERM/SIGINT, longest finishing the requests in flight and logging the queued predictions may take; past it the process exits 1. Default: 30000'],
      ['--poll-ms <ms>', 'how often a snapshot directory is looked at. Default: 500'],
    ],
    example: 'vbstream serve --config examples/pipeline.json --port 8080',
  },
  'serve:learn': {
    summary: 'the outcome learner service: joins the predictions vbstream serve logs with their labels by prediction id, learns each exactly once and publishes the posterior the scoring services hot-swap',
    usage: 'vbstream serve:learn --brokers host:port --predictions T --outcomes T --model NAME --state-topic T --family <id> --dim D --label-window-ms N [--expired-label Y] [--family-options \'<json>\'] [--max-abs-input N] [--posterior-topic T] [--partitions N] [--snapshot-every N] [--group-id G] [--session-timeout-ms N] [--max-state-record-bytes N] [--metrics-port <port> | --no-metrics] [--metrics-host H] [--metrics-allowed-hosts a,b] [--shutdown-timeout-ms 30000] [--kafka-client kafkajs|platformatic]',
    options: [
      ['--brokers <list>', 'bootstrap brokers, comma-separated host:port'],
      ['--kafka-client <name>', 'Kafka client library: platformatic (@platformatic/kafka) or kafkajs. Default: platformatic'],
      ['--predictions <topic>', 'where the scoring services log their predictions (their --predictions-topic), keyed by prediction id (created if missing)'],
      ['--outcomes <topic>', 'where labels {"predictionId", "y"} arrive, keyed by prediction id, same partitions as --predictions (created if missing); expiry markers are written here'],
      ['--model <name>', 'snapshot keys: each partition\'s state under NAME/learner/<p>, the merged posterior under NAME/global (serve it with vbstream serve --snapshot-topic T --model NAME --global); the pipeline label of the metrics'],
      ['--state-topic <topic>', 'compacted topic of the learners\' state (per partition: model, pending predictions in chunks, offsets)'],
      ['--family <id>', 'the family learned and served (see `vbstream models`); more than one partition needs one with merge'],
      ['--dim <D>', 'features of a prediction\'s x (a logged prediction of another width goes to the DLQ, wrong-width)'],
      ['--family-options <json>', 'the family\'s options (its prior). Default: {}'],
      ['--max-abs-input <N>', 'bound on |feature| and |label| (the pipeline\'s schema.maxAbsInput). Default: 1e12'],
      ['--label-window-ms <ms>', 'how long a prediction waits for its label, from its predictedAt'],
      ['--expired-label <y>', 'the label learned for a prediction whose window closed without one (in the family\'s coding). Default: none (such predictions are dropped)'],
      ['--posterior-topic <topic>', 'where the merged posterior for the scoring services is published. Default: the state topic'],
      ['--partitions <N>', 'partitions of the predictions and outcomes topics when this creates them. Default: 1'],
      ['--snapshot-every <N>', 'labels between state snapshots (and at most 1 s after an unsnapshotted label). Default: 1000'],
      ['--group-id <id>', 'consumer group of the learner instances sharing the partitions. Default: vbstream-outcome-learner.<outcomes>.NAME'],
      ['--session-timeout-ms <ms>', 'how long a silent instance keeps its partitions before the group moves them. Default: 30000'],
      ['--max-state-record-bytes <N>', 'largest state record written (pending predictions are split into chunks under it; keep it below the topic\'s max.message.bytes). Default: 1000000'],
      ['--metrics-port <port>', 'serve /metrics (log-loss, Brier, calibration and label delay of the served predictions), /healthz and /readyz on this port (0: a free one). Default: 9464'],
      ['--metrics-host <host>', 'interface of the metrics endpoint. Default: 127.0.0.1'],
      ['--metrics-allowed-hosts <a,b>', 'names the metrics endpoint answers to in the Host header besides --metrics-host, localhost and IP addresses (others: 421); * for any. Default: none'],
      ['--no-metrics', 'serve no metrics'],
      ['--shutdown-timeout-ms <ms>', 'on SIGTERM/SIGINT, longest the final snapshots may take; past it (or when they fail) the process exits 1 with one stderr line naming what did not finish. A second signal exits 130 at once. Default: 30000'],
    ],
    example: 'vbstream serve:learn --brokers 127.0.0.1:9092 --predictions shop.predictions --outcomes shop.outcomes --model shop --state-topic shop.scoring.state --family vb-logit-online --dim 10 --label-window-ms 86400000',
  },
  'bandit:learn': {
    summary: 'the bandit learner service: joins logged decisions with their rewards by decision id and learns each exactly once; publishes the policy for the deciders',
    usage: 'vbstream bandit:learn --brokers host:port --decisions T --rewards T --model NAME --state-topic T --policy \'<json>\' --reward-window-ms N [--expired-reward R] [--policy-topic T] [--partitions N] [--snapshot-every N] [--group-id G] [--session-timeout-ms N] [--max-state-record-bytes N] [--metrics-port <port> | --no-metrics] [--metrics-host H] [--metrics-allowed-hosts a,b] [--shutdown-timeout-ms 30000] [--kafka-client kafkajs|platformatic]',
    options: [
      ['--brokers <list>', 'bootstrap brokers, comma-separated host:port'],
      ['--kafka-client <name>', 'Kafka client library: platformatic (@platformatic/kafka) or kafkajs. Default: platformatic'],
      ['--decisions <topic>', 'where the deciders log decisions, keyed by decision id (created if missing)'],
      ['--rewards <topic>', 'where rewards arrive, keyed by decision id, same partitions as --decisions (created if missing)'],
      ['--model <name>', 'snapshot keys: each partition\'s state under NAME/learner/<p>, the merged policy under NAME/global; the pipeline label of the metrics'],
      ['--state-topic <topic>', 'compacted topic of the learners\' state (per partition: policy, pending decisions in chunks, offsets)'],
      ['--policy <json>', 'the policy of a fresh start: {"kind": "thompson"|"lin-ucb"|"epsilon-greedy", "arms": K, "dim": d, "seed": s, …} (the options of its class in vbstream/bandit)'],
      ['--reward-window-ms <ms>', 'how long a decision waits for its reward, from the decider\'s decidedAt'],
      ['--expired-reward <r>', 'the reward learned for a decision whose window closed without one. Default: none (such decisions are dropped)'],
      ['--policy-topic <topic>', 'where the policy for the deciders is published. Default: the state topic'],
      ['--partitions <N>', 'partitions of the decisions and rewards topics when this creates them. Default: 1'],
      ['--snapshot-every <N>', 'rewards between state snapshots (and at most 1 s after an unsnapshotted reward). Default: 1000'],
      ['--group-id <id>', 'consumer group of the learner instances sharing the partitions. Default: vbstream-bandit-learner.<rewards>.NAME'],
      ['--session-timeout-ms <ms>', 'how long a silent instance keeps its partitions before the group moves them. Default: 30000'],
      ['--max-state-record-bytes <N>', 'largest state record written (pending decisions are split into chunks under it; keep it below the topic\'s max.message.bytes). Default: 1000000'],
      ['--metrics-port <port>', 'serve /metrics, /healthz, /readyz and the live page / on this port (0: a free one). Default: 9464'],
      ['--metrics-host <host>', 'interface of the metrics endpoint. Default: 127.0.0.1'],
      ['--metrics-allowed-hosts <a,b>', 'names the metrics endpoint answers to in the Host header besides --metrics-host, localhost and IP addresses (others: 421, against DNS rebinding); * for any. Default: none'],
      ['--no-metrics', 'serve no metrics'],
      ['--shutdown-timeout-ms <ms>', 'on SIGTERM/SIGINT, longest the final snapshots and commits may take; past it (or when they fail) the process exits 1 with one stderr line naming what did not finish. A second signal exits 130 at once. Default: 30000'],
    ],
    example: 'vbstream bandit:learn --brokers 127.0.0.1:9092 --decisions shop.decisions --rewards shop.rewards --model shop --state-topic shop.bandit.state --policy \'{"kind":"thompson","arms":5,"dim":10,"seed":1}\' --reward-window-ms 3600000 --expired-reward 0',
  },
  'bandit:decide': {
    summary: 'a stateless HTTP decide service: POST /decide answers from the latest published policy and logs the decision; POST /reward writes rewards to Kafka',
    usage: 'vbstream bandit:decide --brokers host:port --decisions T --rewards T --policy-topic T --model NAME [--host 127.0.0.1] [--port 8080] [--allowed-hosts a,b] [--partitions N] [--max-body-bytes 65536] [--request-timeout-ms 10000] [--shutdown-timeout-ms 30000] [--instance-id ID] [--kafka-client kafkajs|platformatic]',
    options: [
      ['--brokers <list>', 'bootstrap brokers, comma-separated host:port'],
      ['--kafka-client <name>', 'Kafka client library: platformatic (@platformatic/kafka) or kafkajs. Default: platformatic'],
      ['--decisions <topic>', 'the learner\'s decisions topic: every decision is logged there (acks from all replicas) before it is answered'],
      ['--rewards <topic>', 'the learner\'s rewards topic: POST /reward writes there'],
      ['--policy-topic <topic>', 'where the learner publishes the policy (its --policy-topic, else its --state-topic); followed and hot-swapped'],
      ['--model <name>', 'the learner\'s --model: the policy is read under NAME/global'],
      ['--host <host>', 'interface to listen on (0.0.0.0: every interface, e.g. behind a load balancer). Default: 127.0.0.1'],
      ['--port <port>', 'HTTP port (0: a free one). Default: 8080'],
      ['--allowed-hosts <a,b>', 'names the service answers to in the Host header besides --host, localhost and IP addresses (others: 421, against DNS rebinding): the name a load balancer forwards; * for any. Default: none'],
      ['--partitions <N>', 'partitions of the decisions and rewards topics when this creates them (the learner\'s). Default: 1'],
      ['--max-body-bytes <N>', 'largest request body; a larger one is answered 413. Default: 65536 (bodies nested over 64 deep: 400; headers or body slower than 10 s: 408; 512 connections at most)'],
      ['--request-timeout-ms <ms>', 'longest a request may wait for its answer (a decision logged, a reward written): past it 503, retriable, Retry-After: 1; a write unacknowledged that long also turns /health to 503 broker-unavailable. Default: 10000'],
      ['--shutdown-timeout-ms <ms>', 'on SIGTERM/SIGINT, longest finishing the requests in flight and logging the queued decisions may take; past it (or when that fails) the process exits 1 with one stderr line naming what did not finish. A second signal exits 130 at once. Default: 30000'],
      ['--instance-id <id>', 'prefix of the decision ids. Default: 12 random hex digits, new at every start (ids must never repeat)'],
    ],
    example: 'vbstream bandit:decide --brokers 127.0.0.1:9092 --decisions shop.decisions --rewards shop.rewards --policy-topic shop.bandit.state --model shop --port 8080',
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
