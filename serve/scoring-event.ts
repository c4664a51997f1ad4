/**
 * What a scoring service reports as it runs (the CLI prints each as a JSON line): a posterior
 * swapped in, with its version, family, width, records, creation time and origin; or a snapshot
 * refused (another family or width, corrupt, unreadable), with where it came from and why — the
 * last good posterior keeps serving.
 */
export type ScoringEvent =
  | { readonly type: 'posterior'; readonly version: string; readonly family: string; readonly dim: number; readonly records: number; readonly createdAt: string; readonly origin: string }
  | { readonly type: 'refused'; readonly origin: string; readonly reason: string; readonly field?: string };
