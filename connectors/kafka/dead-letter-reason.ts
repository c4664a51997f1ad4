/**
 * Why a record went to the dead-letter topic: `oversize` (more bytes than the configured limit),
 * `empty` (no value, e.g. a tombstone), `bad-json` (not UTF-8 JSON), `bad-shape` (not an object,
 * or `x` / a named feature missing), `wrong-width` (a feature vector of another length),
 * `bad-avro` (not in the schema-registry wire format, or not decodable with its writer schema),
 * `unknown-schema` (a schema id the registry does not know, or one the reader schema cannot resolve),
 * `non-numeric` (a feature that is not a number), `non-finite` (±Infinity, e.g. `1e999`),
 * `out-of-range` (a feature, label or weight beyond the schema's `maxAbsInput`, default 1e12, e.g.
 * `1e200`: refused before the model sees it), `bad-label` (label missing, not a number, or outside
 * the family's coding), `refused-by-model`
 * (decoded, but the model's own validation refused it; the model is untouched by it),
 * `non-finite-result` (the model could not learn it in floating point — a value within
 * `maxAbsInput` that the family still cannot take finitely — and rolled back; the model is untouched by it),
 * `unknown-decision` (a bandit reward for a decision the backend does not hold: never logged, or
 * resolved so long ago that it is no longer remembered), `duplicate-reward` (a second reward for a
 * decision already rewarded), `late-reward` (a reward for a decision whose reward window had closed),
 * and the outcome learner's counterparts: `unknown-prediction` (a label for a prediction never logged,
 * or resolved too long ago to be remembered), `duplicate-outcome` (a second label for a prediction
 * already labelled), `late-outcome` (a label for a prediction whose label window had closed).
 */
export type DeadLetterReason = 'oversize' | 'empty' | 'bad-json' | 'bad-avro' | 'unknown-schema' | 'bad-shape' | 'wrong-width' | 'non-numeric' | 'non-finite' | 'out-of-range' | 'bad-label' | 'refused-by-model' | 'non-finite-result' | 'unknown-decision' | 'duplicate-reward' | 'late-reward' | 'unknown-prediction' | 'duplicate-outcome' | 'late-outcome';

/** Every reason, for counters and docs. */
export const DEAD_LETTER_REASONS: readonly DeadLetterReason[] = ['oversize', 'empty', 'bad-json', 'bad-avro', 'unknown-schema', 'bad-shape', 'wrong-width', 'non-numeric', 'non-finite', 'out-of-range', 'bad-label', 'refused-by-model', 'non-finite-result', 'unknown-decision', 'duplicate-reward', 'late-reward', 'unknown-prediction', 'duplicate-outcome', 'late-outcome'];
