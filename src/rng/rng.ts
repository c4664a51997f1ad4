import type { Restorable } from '../core/restorable.js';

const GOLDEN = 0x9e3779b9;
const HIGH_STREAM = 0x6a09e667;
const TWO_POW_32 = 4294967296;
const TWO_POW_MINUS_53 = 1 / 9007199254740992;
const STATE_LENGTH = 7;
const bits = new DataView(new ArrayBuffer(8));

/** MurmurHash3's fmix32 finaliser: a bijection of uint32 with full avalanche. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Output k (k = 1, 2, …) of the SplitMix32 stream started at `state`: fmix32(state + k·φ). */
function splitMix32(state: number, k: number): number {
  return fmix32((state + Math.imul(k, GOLDEN)) | 0);
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/**
 * Seeded, splittable pseudo-random generator: xoshiro128** 1.1 (Blackman & Vigna,
 * "Scrambled linear pseudorandom number generators", ACM TOMS 47 (2021)), 128-bit state,
 * period 2¹²⁸ − 1, on 32-bit integer arithmetic only (Math.imul, shifts).
 *
 * Seeding ({@link Rng.fromSeed}): a safe-integer seed is folded into lo = seed mod 2³² and
 * hi = ⌊seed/2³²⌋ mod 2³² (two's complement for negative seeds); with Aₖ and Bₖ the SplitMix32
 * outputs (Weyl step φ = 0x9E3779B9, MurmurHash3 fmix32) started at lo and at hi ⊕ 0x6A09E667,
 * the state is (A₁, A₂ ⊕ B₁, A₃ ⊕ B₂, A₄ ⊕ B₃). Distinct safe-integer seeds give distinct
 * states. Normals use Marsaglia's polar method; the spare normal is part of the state.
 * Not cryptographically secure.
 */
export class Rng implements Restorable<Rng> {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  private hasSpare = false;
  private spare = 0;

  private constructor(s0: number, s1: number, s2: number, s3: number) {
    this.s0 = s0 | 0;
    this.s1 = s1 | 0;
    this.s2 = s2 | 0;
    this.s3 = s3 | 0;
  }

  /** A generator whose state is a hash of four words, never the forbidden all-zero state. */
  private static fromWords(s0: number, s1: number, s2: number, s3: number): Rng {
    return (s0 | s1 | s2 | s3) === 0 ? new Rng(GOLDEN, 0, 0, 0) : new Rng(s0, s1, s2, s3);
  }

  /**
   * A generator seeded from any safe integer (see the class notes for how the 53 bits are
   * folded into the 128-bit state). The same seed always gives the same sequence.
   *
   * @throws RangeError if `seed` is not a safe integer (NaN, ±Infinity, fractional, |seed| ≥ 2⁵³).
   */
  static fromSeed(seed: number): Rng {
    if (!Number.isSafeInteger(seed)) {
      throw new RangeError(`Rng.fromSeed: seed must be a safe integer, got ${seed}`);
    }
    const lo = seed >>> 0;
    const hi = (Math.floor(seed / TWO_POW_32) ^ HIGH_STREAM) >>> 0;
    return Rng.fromWords(
      splitMix32(lo, 1),
      splitMix32(lo, 2) ^ splitMix32(hi, 1),
      splitMix32(lo, 3) ^ splitMix32(hi, 2),
      splitMix32(lo, 4) ^ splitMix32(hi, 3),
    );
  }

  /**
   * Resumes a generator from {@link Rng.getState} output: the continuation is bit-identical.
   * Also accepts a bare 4-word xoshiro128** state (no cached normal).
   *
   * @throws RangeError if the length is not 4 or 7, the spare flag is not 0 or 1, or the
   * four generator words are all zero.
   */
  static fromState(state: Uint32Array): Rng {
    if (state.length !== 4 && state.length !== STATE_LENGTH) {
      throw new RangeError(`Rng.fromState: state must have length 4 or ${STATE_LENGTH}, got ${state.length}`);
    }
    if ((state[0] | state[1] | state[2] | state[3]) === 0) {
      throw new RangeError('Rng.fromState: state words 0..3 must not all be zero');
    }
    const rng = new Rng(state[0], state[1], state[2], state[3]);
    if (state.length === STATE_LENGTH) {
      if (state[4] > 1) {
        throw new RangeError(`Rng.fromState: state[4] (spare flag) must be 0 or 1, got ${state[4]}`);
      }
      if (state[4] === 1) {
        bits.setUint32(0, state[5], true);
        bits.setUint32(4, state[6], true);
        rng.hasSpare = true;
        rng.spare = bits.getFloat64(0, true);
      }
    }
    return rng;
  }

  /**
   * The full state as a new Uint32Array of length 7: xoshiro words s0..s3, then the cached
   * normal as a flag (0/1) and its IEEE-754 bits (low word, high word; zeros when absent).
   */
  getState(): Uint32Array {
    const state = new Uint32Array(STATE_LENGTH);
    state[0] = this.s0;
    state[1] = this.s1;
    state[2] = this.s2;
    state[3] = this.s3;
    if (this.hasSpare) {
      bits.setFloat64(0, this.spare, true);
      state[4] = 1;
      state[5] = bits.getUint32(0, true);
      state[6] = bits.getUint32(4, true);
    }
    return state;
  }

  /** An independent generator in the same state (the same continuation). */
  clone(): Rng {
    const copy = new Rng(this.s0, this.s1, this.s2, this.s3);
    copy.hasSpare = this.hasSpare;
    copy.spare = this.spare;
    return copy;
  }

  /** Puts this generator in `other`'s state. */
  copyFrom(other: Rng): void {
    this.s0 = other.s0;
    this.s1 = other.s1;
    this.s2 = other.s2;
    this.s3 = other.s3;
    this.hasSpare = other.hasSpare;
    this.spare = other.spare;
  }

  /** Next 32 random bits as an integer in [0, 2³²) (one xoshiro128** step). */
  nextUint32(): number {
    const s0 = this.s0;
    const s1 = this.s1;
    const s2 = this.s2 ^ s0;
    const s3 = this.s3 ^ s1;
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    this.s0 = s0 ^ s3;
    this.s1 = s1 ^ s2;
    this.s2 = s2 ^ (s1 << 9);
    this.s3 = rotl(s3, 11);
    return result;
  }

  /** Uniform double in [0, 1) with 53 random bits (two 32-bit draws: 27 + 26 high bits). */
  nextDouble(): number {
    const high = this.nextUint32() >>> 5;
    const low = this.nextUint32() >>> 6;
    return (high * 67108864 + low) * TWO_POW_MINUS_53;
  }

  /**
   * Standard normal draw by Marsaglia's polar method; each accepted pair yields two normals,
   * the second cached (and included in {@link Rng.getState}).
   */
  normal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      const value = this.spare;
      this.spare = 0;
      return value;
    }
    let u: number;
    let v: number;
    let s: number;
    do {
      u = 2 * this.nextDouble() - 1;
      v = 2 * this.nextDouble() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const factor = Math.sqrt((-2 * Math.log(s)) / s);
    this.hasSpare = true;
    this.spare = v * factor;
    return u * factor;
  }

  /**
   * Gamma(shape, rate) draw (mean shape/rate) by Marsaglia & Tsang, "A simple method for
   * generating gamma variables", ACM TOMS 26 (2000); for shape < 1 the boost
   * Gamma(shape + 1)·U^{1/shape} with U in (0, 1].
   *
   * @throws RangeError if `shape` or `rate` is not finite and > 0.
   */
  gamma(shape: number, rate = 1): number {
    if (!(shape > 0 && shape < Infinity)) {
      throw new RangeError(`Rng.gamma: shape must be finite and > 0, got ${shape}`);
    }
    if (!(rate > 0 && rate < Infinity)) {
      throw new RangeError(`Rng.gamma: rate must be finite and > 0, got ${rate}`);
    }
    if (shape >= 1) return this.marsagliaTsang(shape) / rate;
    const draw = this.marsagliaTsang(shape + 1);
    return (draw * Math.pow(1 - this.nextDouble(), 1 / shape)) / rate;
  }

  /**
   * Student-t draw with `df` > 0 degrees of freedom by Bailey's polar method ("Polar generation of
   * random variates with the t-distribution", Math. Comp. 62, 1994): (u, v) uniform in the unit
   * disc, w = u² + v², t = u·√(df·(w^(−2/df) − 1)/w), with w^(−2/df) − 1 = expm1(−(2/df)·ln w) so
   * its digits survive a large df (pow(w, −2/df) − 1 cancels to a multiple of 2⁻⁵² there; expm1 and
   * ln also cost less than pow). Exact; one accepted pair of uniforms per draw (acceptance π/4), so
   * cheaper than a normal over the square root of a gamma.
   *
   * @throws RangeError if `df` is not finite and > 0.
   */
  studentT(df: number): number {
    if (!(df > 0 && df < Infinity)) {
      throw new RangeError(`Rng.studentT: df must be finite and > 0, got ${df}`);
    }
    let u: number;
    let w: number;
    do {
      u = 2 * this.nextDouble() - 1;
      const v = 2 * this.nextDouble() - 1;
      w = u * u + v * v;
    } while (w >= 1 || w === 0);
    return u * Math.sqrt((df * Math.expm1((-2 / df) * Math.log(w))) / w);
  }

  /** Marsaglia–Tsang squeeze/acceptance loop for Gamma(shape, 1), shape ≥ 1. */
  private marsagliaTsang(shape: number): number {
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number;
      let v: number;
      do {
        x = this.normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = this.nextDouble();
      const x2 = x * x;
      if (u < 1 - 0.0331 * x2 * x2) return d * v;
      if (Math.log(u) < 0.5 * x2 + d * (1 - v + Math.log(v))) return d * v;
    }
  }

  /**
   * A child generator, statistically independent of this one: its state is four draws of
   * this generator, each passed through the SplitMix32 output function. Advances this
   * generator by four 32-bit draws (the cached normal is kept by the parent).
   */
  split(): Rng {
    return Rng.fromWords(
      splitMix32(this.nextUint32(), 1),
      splitMix32(this.nextUint32(), 1),
      splitMix32(this.nextUint32(), 1),
      splitMix32(this.nextUint32(), 1),
    );
  }

  /** Fills `out` with standard normals (the same values as out.length calls of normal()). */
  fill(out: Float64Array): Float64Array {
    for (let i = 0; i < out.length; i++) out[i] = this.normal();
    return out;
  }
}
