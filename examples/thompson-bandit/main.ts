import { parseArgs } from 'node:util';
import { createKafkaPort } from 'vbstream/kafka';
import { ThompsonPolicy } from 'vbstream/bandit';
import { ARM_MODELS, armModelSpec, type ArmModelKind } from './arm-model.js';
import { BanditBackend } from './bandit-backend.js';
import { DEFAULT_BANDIT_SETTINGS, runBanditExperiment } from './bandit-experiment.js';
import { createBanditServer } from './bandit-server.js';
import { KafkaBandit } from './kafka-bandit.js';
import { writeBanditOutputs } from './write-bandit-outputs.js';

/**
 * The Thompson-sampling bandit example.
 *
 *   node dist/examples/thompson-bandit/main.js [--out example-output/thompson-bandit] [--steps 2000]
 *        [--seed 1] [--model vb-logit-online|pg-logit-sda|pg-logit-svi|vi-per]
 *   node dist/examples/thompson-bandit/main.js --serve [--port 8080] [--arms 4] [--dim 5] [--model …]
 *   node dist/examples/thompson-bandit/main.js --kafka-brokers 127.0.0.1:9092 --topic-prefix bandit [--arms 4] [--dim 5] [--model …]
 *
 * Without `--serve`: runs the seeded simulator (Thompson vs ε-greedy vs LinUCB, stationary and with
 * drift, forgetting off vs on), prints the final regrets and writes SVG + CSV into `--out`.
 * With `--serve`: the backend on 127.0.0.1:`--port` (POST /decide, POST /reward) until Ctrl-C.
 * With `--kafka-brokers`: the library's Kafka backend (`vbstream/bandit/kafka`) with requests on
 * `<prefix>.decide` answered on `<prefix>.answers`, rewards on `<prefix>.rewards` (bad ones to
 * `<topic>.dlq`) until Ctrl-C; restarts resume from the learner's state on `<prefix>.state`.
 */
const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'example-output/thompson-bandit' }, steps: { type: 'string', default: String(DEFAULT_BANDIT_SETTINGS.steps) },
    seed: { type: 'string', default: String(DEFAULT_BANDIT_SETTINGS.seed) }, model: { type: 'string', default: DEFAULT_BANDIT_SETTINGS.model },
    serve: { type: 'boolean', default: false }, port: { type: 'string', default: '8080' },
    'kafka-brokers': { type: 'string' }, 'topic-prefix': { type: 'string', default: 'bandit' },
    arms: { type: 'string', default: String(DEFAULT_BANDIT_SETTINGS.arms) }, dim: { type: 'string', default: String(DEFAULT_BANDIT_SETTINGS.dim) },
  },
  strict: true,
});
const integer = (name: 'steps' | 'seed' | 'port' | 'arms' | 'dim', min: number): number => {
  const value = Number(values[name]);
  if (!Number.isSafeInteger(value) || value < min) {
    process.stderr.write(`--${name} must be an integer >= ${min}, got ${values[name]}\n`);
    process.exit(2);
  }
  return value;
};
if (!(ARM_MODELS as readonly string[]).includes(values.model)) {
  process.stderr.write(`--model must be one of ${ARM_MODELS.join(', ')}\n`);
  process.exit(2);
}
const model = values.model as ArmModelKind;

const thompson = (arms: number, dim: number): ThompsonPolicy =>
  new ThompsonPolicy({ arms, dim, model: armModelSpec(model), seed: integer('seed', 0), propensityDraws: 1000 });

if (values['kafka-brokers'] !== undefined) {
  const arms = integer('arms', 2);
  const dim = integer('dim', 1);
  const prefix = values['topic-prefix'];
  const bandit = await KafkaBandit.start(createKafkaPort({ brokers: values['kafka-brokers'].split(',') }), () => thompson(arms, dim), {
    topicPrefix: prefix,
    groupId: `${prefix}.backend`,
    onCrash: (error) => {
      process.stderr.write(`consumer failed: ${error.message}\n`);
      process.exit(1);
    },
  });
  process.stdout.write(`bandit backend (${arms} arms of ${model}, ${dim} features): ${prefix}.decide → ${prefix}.answers, ${prefix}.rewards (decisions logged to ${prefix}.decisions)\n`);
  const stop = (): void => { void bandit.stop().then(() => process.exit(0)); };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else if (values.serve) {
  const arms = integer('arms', 2);
  const dim = integer('dim', 1);
  const policy = thompson(arms, dim);
  const server = createBanditServer(new BanditBackend(policy));
  server.listen(integer('port', 0), '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`bandit backend (${arms} arms of ${model}, ${dim} features): http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : ''}/decide\n`);
  });
  const stop = (): void => { server.close(() => process.exit(0)); };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else {
  const settings = { ...DEFAULT_BANDIT_SETTINGS, steps: integer('steps', 10), seed: integer('seed', 0), model };
  const started = performance.now();
  const results = runBanditExperiment(settings);
  const table = (title: string, curves: typeof results.stationary): string =>
    `${title}\n${curves.map((c) => `  ${c.name.padEnd(28)} regret ${c.cumulative[c.cumulative.length - 1].toFixed(1).padStart(8)}   reward ${c.totalReward}`).join('\n')}\n`;
  process.stdout.write(`${settings.arms} arms, ${settings.dim} features, ${settings.steps} steps, seed ${settings.seed}, per-arm model ${model} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  process.stdout.write(table('stationary:', results.stationary));
  process.stdout.write(table(`drift (every ${settings.drift.every} step(s) N(0, ${settings.drift.scale}²) per weight), forgetting γ = ${settings.forget}:`, results.drift));
  const files = await writeBanditOutputs(values.out, results);
  process.stdout.write(`wrote ${files.join(', ')}\n`);
}
