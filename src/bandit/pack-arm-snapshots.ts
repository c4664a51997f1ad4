import type { JsonValue } from '../core/model-snapshot.js';
import type { OnlineModel } from '../core/online-model.js';

/** Every model's snapshot folded into one header list and one array map (`model<i>/<name>`), for a policy snapshot. */
export function packArmSnapshots(models: readonly OnlineModel[]): { readonly headers: JsonValue[]; readonly arrays: { [name: string]: Float64Array } } {
  const arrays: { [name: string]: Float64Array } = {};
  const headers = models.map((model, i): JsonValue => {
    const snapshot = model.snapshot();
    for (const [name, values] of Object.entries(snapshot.arrays)) arrays[`model${i}/${name}`] = values;
    return { family: snapshot.family, version: snapshot.version, dim: snapshot.dim, header: snapshot.header, arrays: Object.keys(snapshot.arrays) };
  });
  return { headers, arrays };
}
