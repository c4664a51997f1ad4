import type { JsonValue, ModelSnapshot } from '../core/model-snapshot.js';
import type { OnlineModel } from '../core/online-model.js';
import { SnapshotError } from '../core/snapshot-error.js';
import { getFamily } from '../registry.js';

/** The models of `packArmSnapshots`, each restored by its family (bit for bit, migrating older layouts). */
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
