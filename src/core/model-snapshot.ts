/** A JSON value (what a snapshot header may hold). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * A model's serialisable state: a JSON header (options, scalars) plus named binary arrays.
 * `family`, `version` and `dim` let `restore` refuse a snapshot that is not its own.
 */
export interface ModelSnapshot {
  readonly family: string;
  readonly version: number;
  readonly dim: number;
  readonly header: { readonly [key: string]: JsonValue };
  readonly arrays: { readonly [name: string]: Float64Array };
}
