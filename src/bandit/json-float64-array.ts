/**
 * A `Float64Array` that `JSON.stringify` writes as an array of numbers (a plain one is written as an
 * object, `{"0": …, "1": …}`): a decision's `context` and `scores`, so a decision logged as JSON —
 * `JSON.stringify({ ...decision, reward })` — reads back in `bandit:evaluate` and `evaluatePolicy`.
 */
export class JsonFloat64Array extends Float64Array {
  toJSON(): number[] {
    return Array.from(this);
  }
}
