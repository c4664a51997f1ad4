import type { JsonValue, ModelSnapshot } from '../core/model-snapshot.js';
import type { OnlineModel } from '../core/online-model.js';
import { SnapshotError } from '../core/snapshot-error.js';
import { getFamily } from '../registry.js';

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

/** The models of {@link packArmSnapshots}, each restored by its family (bit for bit, migrating older layouts). */
export function unpackArmSnapshots(headers: JsonValue, arrays: { readonly [name: string]: Float64Array }): OnlineModel[] {
  if (!Array.isArray(headers)) throw new SnapshotError('policy snapshot: header.models must be a list');
  return headers.map((entry, i) => {
    const { family, version, dim, header, arrays: names } = entry as { family: string; version: number; dim: number; header: { [key: string]: JsonValue }; arrays: string[] };
    const own: { [name: string]: Float64Array } = {};
    for (const name of names) {
      const values = arrays[`model${i}/${name}`];
      if (values === undefined) throw new SnapshotError(`policy snapshot: array model${i}/${name} is missing`);
      own[name] = values;
    }
    const snapshot: ModelSnapshot = { family, version, dim, header, arrays: own };
    return getFamily(family).restore(snapshot);
  });
}
