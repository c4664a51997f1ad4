/**
 * How large an input value may be, a setting of a model (not of its posterior: snapshots do not
 * carry it, `restore` takes it again). `maxAbsInput` bounds |value| of every feature, regression or
 * count label and record weight that `update` or `predict` takes (default 1e12, at least 1); a larger
 * one is refused as bad input before any arithmetic, so a finite but huge value (1e200) costs a
 * comparison instead of an update that overflows and is rolled back.
 */
export interface InputLimits {
  readonly maxAbsInput?: number;
}
