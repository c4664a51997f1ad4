/** The snapshot-topic key of a model's partition (`model/partition`), or of its merged global posterior (`model/global`). */
export function snapshotKey(model: string, partition: number | 'global'): string {
  return `${model}/${partition}`;
}
