import { numberJson } from './number-json.js';
import type { Prediction } from './prediction.js';

const predictionJson = ({ mean, variance, interval, level, version, predictionId }: Prediction): string =>
  `{"mean":${numberJson(mean)},"variance":${numberJson(variance)},"interval":[${numberJson(interval[0])},${numberJson(interval[1])}],"level":${numberJson(level)},"version":${JSON.stringify(version)},"predictionId":${JSON.stringify(predictionId)}}`;

/**
 * A scoring service's answer (a {@link Prediction}, or `{predictions}` for a batch) as JSON text,
 * byte for byte what `JSON.stringify` writes, built by concatenation: it is written on every
 * request, and stringifying objects walks their keys and allocates more.
 */
export function answerJson(answer: Prediction | { readonly predictions: readonly Prediction[] }): string {
  if (!('predictions' in answer)) return predictionJson(answer);
  let text = '{"predictions":[';
  for (let i = 0; i < answer.predictions.length; i++) text += (i === 0 ? '' : ',') + predictionJson(answer.predictions[i]);
  return `${text}]}`;
}
