/**
 * Named conditions that must all hold before the pipeline is ready (`/readyz` answers 200), e.g.
 * `model-restored` and `source-consuming`. Conditions are declared up front with `require` and
 * flipped with `set` as the pipeline starts (and back, e.g. while a Kafka rebalance revokes the
 * partitions).
 */
export class Readiness {
  private readonly conditions = new Map<string, boolean>();
  private readonly details = new Map<string, string>();

  constructor(required: readonly string[] = []) {
    for (const name of required) this.require(name);
  }

  /** Declares a condition, not yet met. */
  require(name: string): void {
    if (!this.conditions.has(name)) this.conditions.set(name, false);
  }

  /** Marks a declared condition as met (or no longer met, with what is wrong when known); an undeclared name is refused. */
  set(name: string, met = true, detail?: string): void {
    if (!this.conditions.has(name)) throw new RangeError(`unknown readiness condition ${JSON.stringify(name)}; declared: ${[...this.conditions.keys()].join(', ')}`);
    this.conditions.set(name, met);
    if (met || detail === undefined) this.details.delete(name);
    else this.details.set(name, detail);
  }

  /** Conditions not met yet. */
  pending(): string[] {
    return [...this.conditions].filter(([, met]) => !met).map(([name]) => name);
  }

  /** Conditions not met yet, each with what is wrong where it was told: `dead-letters (partition 0: …)`. */
  explain(): string[] {
    return this.pending().map((name) => {
      const detail = this.details.get(name);
      return detail === undefined ? name : `${name} (${detail})`;
    });
  }

  /** Every declared condition and whether it holds. */
  states(): [name: string, met: boolean][] {
    return [...this.conditions];
  }

  get ready(): boolean {
    return this.pending().length === 0;
  }
}
