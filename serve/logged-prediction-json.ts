import type { LoggedPrediction } from './logged-prediction.js';
import { numberJson } from './number-json.js';

/**
 * A {@link LoggedPrediction} as the JSON text a predictions topic holds, byte for byte what
 * `JSON.stringify` writes of it (fields in the interface's order), built by concatenation: every
 * answer of a logging service writes one.
 */
export function loggedPredictionJson(p: LoggedPrediction): string {
  let x = '';
  for (let j = 0; j < p.x.length; j++) x += (j === 0 ? '' : ',') + numberJson(p.x[j]);
  return `{"predictionId":${JSON.stringify(p.predictionId)},"x":[${x}],"version":${JSON.stringify(p.version)},"mean":${numberJson(p.mean)},"variance":${numberJson(p.variance)},"interval":[${numberJson(p.interval[0])},${numberJson(p.interval[1])}],"level":${numberJson(p.level)},"predictedAt":${numberJson(p.predictedAt)},"instance":${JSON.stringify(p.instance)},"family":${JSON.stringify(p.family)},"dim":${numberJson(p.dim)}}`;
}
