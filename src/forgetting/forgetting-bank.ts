import { cloneState } from '../core/clone-state.js';
import type { Restorable } from '../core/restorable.js';

/** Per-record discount of each candidate's log evidence: a memory of about 1/(1 − δ) = 1,000 records. */
const EVIDENCE_DISCOUNT = 0.999;

/** Nats by which a candidate's discounted evidence must beat the leader's before it takes the lead (no flapping between near-equal candidates). */
const LEAD_MARGIN = 2;

/**
 * What a bank needs of its family's member states: `copy` between two versions of one member's history
 * (the shell's backup and rollback; it may copy only what changed), `overwrite` with another member's
 * posterior (a change of leader, a restart), a power-prior forget and a finiteness check.
 */
export interface BankMemberOps<Member> {
  copy(target: Member, source: Member): void;
  overwrite(target: Member, source: Member): void;
  forget(member: Member, factor: number): void;
  isFinite(member: Member): boolean;
}

/**
 * Adaptive forgetting by the prequential evidence of a few candidates: one posterior per candidate
 * forgetting factor γ_k (a power prior toward the prior, applied every `every` records; γ = 1 is no
 * forgetting), all fed every record. Each candidate's log predictive probability of each record,
 * before learning it, is summed with the discount {@link EVIDENCE_DISCOUNT}; every `every` records
 * the candidate with the most evidence takes the lead when it beats the leader's by
 * {@link LEAD_MARGIN} nats. The leader's posterior lives in the model's own state (what predict,
 * sample and the posterior accessors read); the others are `members`, slot j holding candidate
 * `candidateOf[j]`. A change of leader swaps the two posteriors' contents. Costs one model per
 * candidate: K candidates, K times the CPU and memory of the plain model.
 */
export class ForgettingBank<Member extends object> implements Restorable<ForgettingBank<Member>> {
  constructor(
    private readonly ops: BankMemberOps<Member>,
    /** Candidate factors, each applied every `every` records; candidate 0 is the one that leads first. */
    readonly factors: Float64Array,
    readonly every: number,
    readonly members: Member[],
    readonly candidateOf: Int32Array,
    /** Discounted Σ ln p(y | the records before) of each candidate. */
    readonly evidence: Float64Array,
    public leader: number,
    /** Records since the last forgetting step. */
    public sinceForget: number,
  ) {}

  /** A bank whose every candidate starts from a copy of `leader` (the model's state before it holds the bank), candidate 0 leading. */
  static of<Member extends object>(ops: BankMemberOps<Member>, factors: Float64Array, every: number, leader: Member): ForgettingBank<Member> {
    const k = factors.length;
    const members = Array.from({ length: k - 1 }, () => cloneState(leader));
    return new ForgettingBank(ops, factors, every, members, Int32Array.from({ length: k - 1 }, (_, j) => j + 1), new Float64Array(k), 0, 0);
  }

  clone(): ForgettingBank<Member> {
    return new ForgettingBank(this.ops, this.factors.slice(), this.every, this.members.map((m) => cloneState(m)), this.candidateOf.slice(), this.evidence.slice(), this.leader, this.sinceForget);
  }

  copyFrom(other: ForgettingBank<Member>): void {
    for (let j = 0; j < this.members.length; j++) this.ops.copy(this.members[j], other.members[j]);
    this.candidateOf.set(other.candidateOf);
    this.evidence.set(other.evidence);
    this.leader = other.leader;
    this.sinceForget = other.sinceForget;
  }

  /**
   * Feeds records 0 .. n−1 to the leader (`state`) and every member: `record(member, r)` absorbs
   * record r into a member and returns ln p(y_r | what that member had seen). Forgets and reselects
   * the leader every `every` records.
   */
  step(state: Member, n: number, record: (member: Member, r: number) => number): void {
    const evidence = this.evidence;
    for (let r = 0; r < n; r++) {
      evidence[this.leader] = EVIDENCE_DISCOUNT * evidence[this.leader] + record(state, r);
      for (let j = 0; j < this.members.length; j++) {
        const k = this.candidateOf[j];
        evidence[k] = EVIDENCE_DISCOUNT * evidence[k] + record(this.members[j], r);
      }
      if (++this.sinceForget < this.every) continue;
      this.sinceForget = 0;
      if (this.factors[this.leader] < 1) this.ops.forget(state, this.factors[this.leader]);
      for (let j = 0; j < this.members.length; j++) {
        const factor = this.factors[this.candidateOf[j]];
        if (factor < 1) this.ops.forget(this.members[j], factor);
      }
      this.select(state);
    }
  }

  /** `forget(factor)` of the model: every candidate's posterior forgets alike. */
  forgetAll(state: Member, factor: number): void {
    this.ops.forget(state, factor);
    for (const member of this.members) this.ops.forget(member, factor);
  }

  /** After a merge into the leader: every candidate restarts from it, with no evidence (the leader keeps its factor). */
  restartFrom(state: Member): void {
    for (const member of this.members) this.ops.overwrite(member, state);
    this.evidence.fill(0);
    this.sinceForget = 0;
  }

  isFinite(): boolean {
    for (let k = 0; k < this.evidence.length; k++) if (!Number.isFinite(this.evidence[k])) return false;
    return this.members.every((member) => this.ops.isFinite(member));
  }

  /** Hands the lead to the candidate with the most evidence when it beats the leader's by {@link LEAD_MARGIN}. */
  private select(state: Member): void {
    let best = this.leader;
    for (let k = 0; k < this.evidence.length; k++) if (this.evidence[k] > this.evidence[best]) best = k;
    if (best === this.leader || this.evidence[best] < this.evidence[this.leader] + LEAD_MARGIN) return;
    const slot = this.candidateOf.indexOf(best);
    const held = cloneState(this.members[slot]);
    this.ops.overwrite(this.members[slot], state);
    this.ops.overwrite(state, held);
    this.candidateOf[slot] = this.leader;
    this.leader = best;
  }
}
