import { cloneState } from '../core/clone-state.js';
import type { Restorable } from '../core/restorable.js';
import { stableShape } from '../core/stable-shape.js';

/** Per-record discount of each candidate's log evidence: a memory of about 1/(1 − δ) = 1,000 records. */
const EVIDENCE_DISCOUNT = 0.999;

/** Nats by which a candidate's discounted evidence must beat the leader's before it takes the lead (no flapping between near-equal candidates). */
const LEAD_MARGIN = 2;

/** Nats per record the leader's surprise may exceed its own expectation without counting toward an alarm (room for an approximate predictive). */
const SURPRISE_ALLOWANCE = 0.1;

/** Accumulated excess surprise, in nats, that wakes the challengers. */
const ALARM = 20;

/** Records awake without a change of leader or an alarm, with a non-forgetting leader, after which the challengers sleep again. */
const SLEEP_AFTER = 1000;

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

/** The bank's own scalars (besides the members): see {@link ForgettingBank}. */
export interface BankCounters {
  leader: number;
  sinceForget: number;
  awake: boolean;
  /** Times the challengers have woken: members of two versions of the bank with the same count are versions of one history. */
  wakes: number;
  surprise: number;
  calm: number;
}

/**
 * Adaptive forgetting by the prequential evidence of a few candidates: one posterior per candidate
 * forgetting factor γ_k (a power prior toward the prior, applied every `every` records; γ = 1 is no
 * forgetting). Each candidate's log predictive probability of each record, before learning it, is
 * summed with the discount {@link EVIDENCE_DISCOUNT}; every `every` records the candidate with the most
 * evidence takes the lead when it beats the leader's by {@link LEAD_MARGIN} nats. The leader's
 * posterior lives in the model's own state (what predict, sample and the posterior accessors read);
 * the others are `members`, slot j holding candidate `candidateOf[j]`. A change of leader swaps the two
 * posteriors' contents.
 *
 * The challengers sleep while a non-forgetting leader predicts as well as it expects (when `sleeps`,
 * for binary labels): a CUSUM of the leader's surprise, −ln p(y) less its own expectation, the entropy
 * of its predictive H(p) (both from p(y), the record's log predictive probability), less
 * {@link SURPRISE_ALLOWANCE} a record, wakes them when it passes {@link ALARM} nats. A waking challenger
 * starts as the leader discounted (a power prior) to its own factor's steady-state memory,
 * every/(1 − γ_k) records (`memory` tracks each candidate's records, discounted by its forgetting), with
 * the leader's evidence; all are then fed every record as before. They sleep again after
 * {@link SLEEP_AFTER} calm records (no change of leader, no alarm) under a leader of factor 1. Asleep,
 * the bank costs one O(1) test a record and the members are neither fed, copied nor saved; awake, K
 * candidates cost K times the CPU of the plain model.
 */
export class ForgettingBank<Member extends object> implements Restorable<ForgettingBank<Member>> {
  constructor(
    private readonly ops: BankMemberOps<Member>,
    /** Candidate factors, each applied every `every` records; candidate 0 is the one that leads first. */
    readonly factors: Float64Array,
    readonly every: number,
    /** Whether the challengers may sleep (the records' log predictive probabilities are of binary labels). */
    readonly sleeps: boolean,
    readonly members: Member[],
    readonly candidateOf: Int32Array,
    /** Discounted Σ ln p(y | the records before) of each candidate. */
    readonly evidence: Float64Array,
    /** Records each candidate has absorbed, discounted by its forgetting steps. */
    readonly memory: Float64Array,
    /** The leader, the records since the last forgetting step, whether the challengers are fed, the surprise CUSUM and the calm records awake. */
    readonly counters: BankCounters,
  ) {}

  /** The last {@link surpriseAfter}: its inputs and answer (not state; NaN inputs match nothing). */
  private readonly lastSurprise = stableShape({ logPredictive: NaN, before: NaN, after: 0 }, ['after']);

  /** A bank whose every candidate starts from `leader` (the model's state before it holds the bank), candidate 0 leading, asleep when it may sleep and candidate 0 does not forget. */
  static of<Member extends object>(ops: BankMemberOps<Member>, factors: Float64Array, every: number, sleeps: boolean, leader: Member): ForgettingBank<Member> {
    const k = factors.length;
    const members = Array.from({ length: k - 1 }, () => cloneState(leader));
    const awake = !(sleeps && factors[0] === 1);
    return new ForgettingBank(ops, factors, every, sleeps, members, Int32Array.from({ length: k - 1 }, (_, j) => j + 1), new Float64Array(k), new Float64Array(k), stableShape({ leader: 0, sinceForget: 0, awake, wakes: 0, surprise: 0, calm: 0 }, ['surprise']));
  }

  get leader(): number {
    return this.counters.leader;
  }

  get awake(): boolean {
    return this.counters.awake;
  }

  clone(): ForgettingBank<Member> {
    return new ForgettingBank(this.ops, this.factors.slice(), this.every, this.sleeps, this.members.map((m) => cloneState(m)), this.candidateOf.slice(), this.evidence.slice(), this.memory.slice(), { ...this.counters });
  }

  /**
   * Copies `other` (a version of this bank's history). Sleeping members hold nothing that counts and
   * are not copied; members woken since the other version are copied whole (`cloneState`), the
   * others by the family's `copy` (only what changed).
   */
  copyFrom(other: ForgettingBank<Member>): void {
    if (other.counters.awake) {
      const sameWake = other.counters.wakes === this.counters.wakes;
      for (let j = 0; j < this.members.length; j++) {
        if (sameWake) this.ops.copy(this.members[j], other.members[j]);
        else this.members[j] = cloneState(other.members[j]);
      }
    }
    for (let j = 0; j < this.candidateOf.length; j++) this.candidateOf[j] = other.candidateOf[j];
    for (let k = 0; k < this.evidence.length; k++) {
      this.evidence[k] = other.evidence[k];
      this.memory[k] = other.memory[k];
    }
    const counters = this.counters;
    const from = other.counters;
    counters.leader = from.leader;
    counters.sinceForget = from.sinceForget;
    counters.awake = from.awake;
    counters.wakes = from.wakes;
    counters.surprise = from.surprise;
    counters.calm = from.calm;
  }

  /**
   * Feeds records 0 .. n−1 to the leader (`state`) and, awake, every member: `record(member, r, context)`
   * absorbs record r into a member and returns ln p(y_r | what that member had seen) (`context`, passed
   * through, lets a family give one function for every model rather than a closure per model). Forgets and
   * reselects the leader every `every` records; wakes and puts to sleep the challengers.
   */
  step<Context>(state: Member, n: number, record: (member: Member, r: number, context: Context) => number, context?: Context): void {
    const { evidence, memory, counters, factors } = this;
    for (let r = 0; r < n; r++) {
      const leader = counters.leader;
      const logPredictive = record(state, r, context as Context);
      evidence[leader] = EVIDENCE_DISCOUNT * evidence[leader] + logPredictive;
      memory[leader] += 1;
      if (counters.awake) {
        for (let j = 0; j < this.members.length; j++) {
          const k = this.candidateOf[j];
          evidence[k] = EVIDENCE_DISCOUNT * evidence[k] + record(this.members[j], r, context as Context);
          memory[k] += 1;
        }
        counters.calm += 1;
      }
      if (this.sleeps && this.alarmed(logPredictive)) {
        if (!counters.awake) this.wake(state);
        counters.calm = 0;
      }
      if (++counters.sinceForget < this.every) continue;
      counters.sinceForget = 0;
      if (factors[leader] < 1) this.forgetCandidate(state, leader, factors[leader]);
      if (!counters.awake) continue;
      for (let j = 0; j < this.members.length; j++) {
        const k = this.candidateOf[j];
        if (factors[k] < 1) this.forgetCandidate(this.members[j], k, factors[k]);
      }
      this.select(state);
      if (this.sleeps && factors[counters.leader] === 1 && counters.calm >= SLEEP_AFTER) counters.awake = false;
    }
  }

  /** `forget(factor)` of the model: every candidate's posterior forgets alike (sleeping members are restarted from the leader when they wake). */
  forgetAll(state: Member, factor: number): void {
    this.ops.forget(state, factor);
    if (this.counters.awake) for (const member of this.members) this.ops.forget(member, factor);
    for (let k = 0; k < this.memory.length; k++) this.memory[k] *= factor;
  }

  /** After a merge into the leader: every candidate restarts from it, with no evidence (the leader keeps its factor). */
  restartFrom(state: Member): void {
    if (this.counters.awake) for (const member of this.members) this.ops.overwrite(member, state);
    this.evidence.fill(0);
    this.memory.fill(this.memory[this.counters.leader]);
    this.counters.sinceForget = 0;
  }

  isFinite(): boolean {
    for (let k = 0; k < this.evidence.length; k++) if (!Number.isFinite(this.evidence[k]) || !Number.isFinite(this.memory[k])) return false;
    return !this.counters.awake || this.members.every((member) => this.ops.isFinite(member));
  }

  /**
   * Whether feeding the leader a record of log predictive probability `logPredictive` only counts it:
   * the challengers asleep (so the leader does not forget) and staying so (no alarm), and the evidence
   * finite. Then `step` changes nothing but the bank's own numbers and cannot fail, which lets a
   * family's single-record step skip the shell's backup.
   */
  quietFor(logPredictive: number): boolean {
    return !this.counters.awake && Number.isFinite(logPredictive) && !(this.surpriseAfter(logPredictive) > ALARM);
  }

  /**
   * The leader's surprise CUSUM after a record of log predictive probability `logPredictive`: its
   * excess surprise added, floored at 0. The last answer is kept with its inputs, so `step` after
   * `quietFor` of the same record does not compute it twice.
   */
  private surpriseAfter(logPredictive: number): number {
    const last = this.lastSurprise;
    if (last.logPredictive === logPredictive && last.before === this.counters.surprise) return last.after;
    const p = Math.exp(logPredictive);
    const entropy = p < 1 ? -p * logPredictive - (1 - p) * Math.log1p(-p) : 0;
    last.logPredictive = logPredictive;
    last.before = this.counters.surprise;
    last.after = Math.max(0, this.counters.surprise - logPredictive - entropy - SURPRISE_ALLOWANCE);
    return last.after;
  }

  /** Adds the leader's excess surprise at a record of log predictive probability `logPredictive` to the CUSUM; true (and the CUSUM cleared) when it passes {@link ALARM}. */
  private alarmed(logPredictive: number): boolean {
    const counters = this.counters;
    counters.surprise = this.surpriseAfter(logPredictive);
    if (!(counters.surprise > ALARM)) return false;
    counters.surprise = 0;
    return true;
  }

  /** Every challenger restarts from the leader's posterior (its own part, not the bank) discounted to its factor's steady-state memory, with the leader's evidence. */
  private wake(state: Member): void {
    const { evidence, memory, counters } = this;
    const leader = counters.leader;
    for (let j = 0; j < this.members.length; j++) {
      const k = this.candidateOf[j];
      this.ops.overwrite(this.members[j], state);
      evidence[k] = evidence[leader];
      memory[k] = memory[leader];
      const steady = this.factors[k] < 1 ? this.every / (1 - this.factors[k]) : Infinity;
      if (steady < memory[k]) this.forgetCandidate(this.members[j], k, steady / memory[k]);
    }
    counters.awake = true;
    counters.wakes += 1;
    counters.calm = 0;
  }

  private forgetCandidate(member: Member, k: number, factor: number): void {
    this.ops.forget(member, factor);
    this.memory[k] *= factor;
  }

  /** Hands the lead to the candidate with the most evidence when it beats the leader's by {@link LEAD_MARGIN}. */
  private select(state: Member): void {
    const counters = this.counters;
    let best = counters.leader;
    for (let k = 0; k < this.evidence.length; k++) if (this.evidence[k] > this.evidence[best]) best = k;
    if (best === counters.leader || this.evidence[best] < this.evidence[counters.leader] + LEAD_MARGIN) return;
    const slot = this.candidateOf.indexOf(best);
    const held = cloneState(this.members[slot]);
    this.ops.overwrite(this.members[slot], state);
    this.ops.overwrite(state, held);
    this.candidateOf[slot] = counters.leader;
    counters.leader = best;
    counters.calm = 0;
  }
}
