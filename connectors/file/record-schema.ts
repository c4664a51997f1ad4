/** Which fields of a CSV row or JSON object are the features, the label and an optional weight. */
export interface RecordSchema {
  /** Feature fields in order; default: every field but the label and the weight (CSV header or first JSON object). */
  readonly features?: readonly string[];
  /** Label field. */
  readonly label: string;
  /** Optional likelihood weight field. */
  readonly weight?: string;
}
