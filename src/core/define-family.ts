import { checkOptionKeys } from './check-option-keys.js';
import type { Family } from './family.js';
import { familyTraitsOf } from './family-traits-of.js';
import type { FamilyDefinition, FamilyState } from './family-definition.js';
import type { InputLimits } from './input-limits.js';
import type { ModelSnapshot } from './model-snapshot.js';
import { ModelShell } from './model-shell.js';
import { optionChecks } from './option-checks.js';
import type { Predictive } from './predictive.js';
import { snapshotChecks } from './snapshot-checks.js';
import { SnapshotError } from './snapshot-error.js';
import { VbstreamError } from './vbstream-error.js';

/** Brings a snapshot to the codec's current layout through its migrations, one version at a time. */
function migrate(id: string, snapshot: ModelSnapshot, current: number, migrations: { readonly [from: number]: (s: ModelSnapshot) => ModelSnapshot } = {}): ModelSnapshot {
  if (!Number.isInteger(snapshot.version) || snapshot.version < 1) throw new SnapshotError('snapshot layout version must be a positive integer', { field: 'version', value: snapshot.version });
  if (snapshot.version > current) {
    throw new SnapshotError(`${id} snapshot layout version ${snapshot.version} is not supported: it was written by a newer vbstream (this one reads up to ${current})`, { field: 'version', value: snapshot.version });
  }
  let migrated = snapshot;
  while (migrated.version < current) {
    const step = migrations[migrated.version];
    if (step === undefined) throw new SnapshotError(`snapshot layout version ${migrated.version} of ${id} cannot be migrated to version ${current}`, { field: 'version', value: migrated.version });
    const from = migrated.version;
    try {
      migrated = step(migrated);
    } catch (cause) {
      if (cause instanceof SnapshotError) throw cause;
      throw new SnapshotError(`migrating a ${id} snapshot from layout version ${from} failed: ${(cause as Error).message}`, { field: 'version', value: from }, { cause });
    }
    if (migrated.version !== from + 1) throw new SnapshotError(`the ${id} migration from layout version ${from} produced version ${migrated.version}`, { field: 'version', value: migrated.version });
  }
  return migrated;
}

/**
 * The registry entry of a family: `create` checks the option keys (strict, with "did you mean") and
 * the dimension, then builds the state; `restore` checks family and dimension, migrates an old
 * layout, checks that every array entry and header number is finite (NaN only at the codec's
 * `notYetComputed` markers), decodes, then checks that the records seen are not negative and the
 * codec's `invariants` — any failure a `SnapshotError` naming the family, the array or field and the
 * first bad index and value. Both wrap the state in `Model` (the generic {@link ModelShell}, or a subclass
 * with the family's own accessors) with the {@link InputLimits} given.
 */
export function defineFamily<Options extends object, State extends FamilyState, Workspace, Prediction extends Predictive, Model extends ModelShell<Options, State, Workspace, Prediction> = ModelShell<Options, State, Workspace, Prediction>>(
  definition: FamilyDefinition<Options, State, Workspace, Prediction>,
  Model: new (definition: FamilyDefinition<Options, State, Workspace, Prediction>, state: State, limits?: InputLimits) => Model = ModelShell as unknown as new (definition: FamilyDefinition<Options, State, Workspace, Prediction>, state: State, limits?: InputLimits) => Model,
): Family<Options, Model> {
  const { id } = definition;
  return {
    id,
    summary: definition.summary,
    semantics: definition.semantics,
    task: definition.task,
    traits: familyTraitsOf(definition),
    options: definition.options,
    evidenceBound: definition.evidenceBound !== undefined,
    create(dim: number, options?: Options, limits?: InputLimits): Model {
      checkOptionKeys(id, options, definition.options);
      return new Model(definition, definition.create(optionChecks.dimension(dim), options ?? ({} as Options)), limits);
    },
    restore(snapshot: ModelSnapshot, limits?: InputLimits): Model {
      if (snapshot.family !== id) throw new SnapshotError(`snapshot is of family "${snapshot.family}", expected "${id}"`, { field: 'family', value: snapshot.family });
      if (!Number.isInteger(snapshot.dim) || snapshot.dim < 1) throw new SnapshotError('snapshot dimension must be a positive integer', { field: 'dim', value: snapshot.dim });
      const current = migrate(id, snapshot, definition.codec.version, definition.codec.migrations);
      const nonFinite = snapshotChecks.finite(current, definition.codec.notYetComputed);
      if (nonFinite !== undefined) throw snapshotChecks.refusal(id, nonFinite);
      let state: State;
      try {
        state = definition.codec.decode(current);
      } catch (cause) {
        if (cause instanceof SnapshotError) throw cause;
        throw new SnapshotError(`${id} snapshot cannot be decoded: ${cause instanceof VbstreamError ? cause.reason : (cause as Error).message}`, { field: 'header' }, { cause });
      }
      if (state.dim !== snapshot.dim) throw new SnapshotError(`${id} snapshot decodes to dimension ${state.dim}, its header says ${snapshot.dim}`, { field: 'dim', value: state.dim });
      const broken = snapshotChecks.nonNegative('records', definition.recordsSeen(state)) ?? definition.codec.invariants?.(state);
      if (broken !== undefined) throw snapshotChecks.refusal(id, broken);
      return new Model(definition, state, limits);
    },
  };
}
