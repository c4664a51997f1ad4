/** Where writer schemas are looked up by id (a Confluent-compatible registry, or an in-memory map in unit tests). */
export interface SchemaRegistry {
  /** The schema text registered under `id`; `undefined` when the registry does not know it. Throws a retriable error when the registry cannot be reached. */
  schemaById(id: number): Promise<string | undefined>;
}
