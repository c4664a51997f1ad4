import { ShapeError } from '../core/shape-error.js';
import { denseKernelsBinary } from './dense-kernels-binary.js';

/** The part of the WebAssembly JS API used here (ES2022's lib does not declare it; Node has it since 8). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: unknown };
};

/** The exports of wasm/dense-kernels.ts: pointers are byte offsets into `memory`. */
interface DenseKernelExports {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  heapBase(): number;
  gramAccumulateUpper(x: number, n: number, d: number, out: number, alpha: number, w: number, scaled: number, y: number, xty: number): void;
  gemmNt(out: number, ldo: number, x: number, y: number, m: number, p: number, n: number, lower: number, yTriangle: number, panel: number): void;
  gemmNnAccumulate(out: number, ldo: number, a: number, lda: number, src: number, lds: number, m: number, k: number, n: number): void;
  solveLowerRows(l: number, n: number, b: number, cols: number, negated: number, lowerOnly: number): void;
  solveLowerTransposedTiled(l: number, n: number, b: number, cols: number, negatedTranspose: number, part: number): void;
  lowerTransposedTimesTiled(out: number, src: number, l: number, m: number, n: number, transposed: number, lowerOnly: number): void;
  choleskyFactor(a: number, n: number, l: number, lt: number, jitter: number): number;
  choleskyInverse(l: number, n: number, out: number, inv: number): void;
  symmetricGemvUpper(a: number, n: number, x: number, out: number): void;
  shermanMorrisonPairUpper(a: number, alpha: number, x: number, b: number, u: number, n: number, haveU: number): number;
  allWithin(x: number, length: number, max: number): number;
  gemvRows(a: number, rows: number, cols: number, x: number, out: number): void;
}

/**
 * The WebAssembly SIMD dense kernels, instantiated synchronously from the bytes embedded at build time, and
 * the scratch region that callers copy their operands into with `write` and out of with `read` (it grows,
 * never shrinks; a growth replaces the view). One instance per thread (each worker loads its own module).
 */
class DenseKernels {
  readonly kernels: DenseKernelExports;
  private readonly base: number;
  private view: Float64Array;
  /** The array whose first {@link stagedLength} values {@link stage} left at the start of the scratch (until the next `reserve` or `write`). */
  private staged: Float64Array | undefined;
  private stagedLength = 0;

  constructor(binary: Uint8Array) {
    const module = new WebAssembly.Module(binary);
    this.kernels = new WebAssembly.Instance(module, { env: { abort: abortFromKernel } }).exports as DenseKernelExports;
    this.base = (this.kernels.heapBase() + 15) & ~15;
    this.view = new Float64Array(this.kernels.memory.buffer);
  }

  /**
   * Makes `doubles` Float64 free from the returned Float64 index of `f64` (its byte offset is 8× that). A region
   * the memory cannot grow to (past wasm32's 4 GiB, or refused by the system) throws `ShapeError`, not retriable:
   * the same operands ask for the same bytes again.
   */
  reserve(doubles: number): number {
    this.staged = undefined;
    const needed = this.base + doubles * 8;
    // Only `reserve` grows the memory (the kernels allocate nothing), so the view's length is the memory's.
    if (needed > this.view.byteLength) {
      const memory = this.kernels.memory;
      try {
        memory.grow(Math.ceil((needed - memory.buffer.byteLength) / 65536));
      } catch (cause) {
        throw new ShapeError(`the dense kernels' WebAssembly memory cannot grow to hold operands of ${doubles * 8} bytes (${needed} bytes in all, it has ${memory.buffer.byteLength})`,
          { field: 'operands', value: doubles * 8 }, { cause });
      }
      this.view = new Float64Array(memory.buffer);
    }
    return this.base / 8;
  }

  /** Copies `length` values of `source` from `offset` to Float64 index `at` of the module's memory. */
  write(at: number, source: Float64Array, length: number, offset = 0): void {
    this.staged = undefined;
    if (length <= SHORT) {
      const view = this.view;
      for (let i = 0; i < length; i++) view[at + i] = source[offset + i];
      return;
    }
    this.view.set(offset === 0 && source.length === length ? source : source.subarray(offset, offset + length), at);
  }

  /**
   * Copies the first `length` values of `source` to the start of the scratch (the index `reserve` returns, which it
   * returns here) and remembers that they are there: {@link holds} says so until the next `reserve`, `write` or
   * {@link unstage}. A caller that checks an operand before the kernel that takes it copies it once.
   */
  stage(source: Float64Array, length: number): number {
    const at = this.reserve(length);
    this.write(at, source, length);
    this.staged = source;
    this.stagedLength = length;
    return at;
  }

  /** Whether the start of the scratch holds the first `length` values of `source`, copied by {@link stage} (the same array object, nothing reserved or written since). */
  holds(source: Float64Array, length: number): boolean {
    return this.staged === source && this.stagedLength === length;
  }

  /** Forgets the staged copy (its owner may change the array's values from here on). */
  unstage(): void {
    this.staged = undefined;
  }

  /**
   * Copies `length` values from Float64 index `at` of the module's memory to `target` from `offset`. One
   * short-lived view per call: element loops over the module's memory measured 10–20× slower (about 2–3 ns
   * a value against 0.2 for this block copy), more than the kernels themselves at the small sizes — except for
   * at most {@link SHORT} values, where making the view costs more than the loop (as in `write`).
   */
  read(at: number, target: Float64Array, length: number, offset = 0): void {
    if (length <= SHORT) {
      const view = this.view;
      for (let i = 0; i < length; i++) target[offset + i] = view[at + i];
      return;
    }
    target.set(this.view.subarray(at, at + length), offset);
  }
}

/** Copies of at most this many values loop over the elements (a d = 10 vector: 0.23 µs against 0.35 for a symmetric product at d = 10 through views). */
const SHORT = 32;

function abortFromKernel(): never {
  throw new Error('dense kernel aborted');
}

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** This thread's dense kernels. */
export const denseKernels = new DenseKernels(decodeBase64(denseKernelsBinary));
