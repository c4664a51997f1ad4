import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cholesky } from '../src/linalg/cholesky.js';
import { choleskyInverse } from '../src/linalg/cholesky-inverse.js';
import { gemmNnAccumulate } from '../src/linalg/gemm-nn-accumulate.js';
import { gemmNt } from '../src/linalg/gemm-nt.js';
import { gramAccumulate } from '../src/linalg/gram-accumulate.js';
import { lowerTransposedTimesTiled } from '../src/linalg/lower-transposed-times-tiled.js';
import { solveLowerRows } from '../src/linalg/solve-lower-rows.js';
import { solveLowerTransposedTiled } from '../src/linalg/solve-lower-transposed-tiled.js';
import { symmetricGemv } from '../src/linalg/symmetric-gemv.js';
import { symmetricRank1Update } from '../src/linalg/symmetric-rank1-update.js';

/**
 * Roofline of the dense kernels (issue 30): GFLOP/s of every hot kernel at the sizes the families use
 * (d = 10…400, M = 100…500 inducing points, batches 100…1,000), one thread, CPU time, against two peaks
 * measured in the same run: numpy's single-thread float64 GEMM (bench/python/gemm_peak.py with its BLAS held
 * to one thread; skipped with a message without python3 or numpy) and the best figure of our own kernels.
 * Flops are the textbook counts (2mnk for a product, n³/3 for Cholesky, n²·cols for a triangular solve of
 * cols right-hand sides; the solves' time includes restoring B, which is small beside it); a kernel that skips
 * zeros is charged only for what it must do. With 128-bit vectors and no fused multiply-add (WebAssembly SIMD
 * in Node 20), a core's arithmetic peak is about half that of the AVX2 FMA a BLAS uses.
 * `ROOFLINE_MS` (default 300): CPU milliseconds per case.
 */
const CASE_MS = Number(process.env.ROOFLINE_MS ?? 300);

/** CPU milliseconds of this process since `start`. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/**
 * GFLOP/s of `work` (which does `flops` each call) over at least CASE_MS of this process's CPU time, after a
 * warm-up; calls go in batches of at least 2 ms so reading the clock costs nothing next to a small kernel.
 */
function gflops(flops: number, work: () => void): number {
  let batch = 1;
  for (;;) {
    const start = process.cpuUsage();
    for (let i = 0; i < batch; i++) work();
    if (cpuMsSince(start) >= 2) break;
    batch *= 2;
  }
  const start = process.cpuUsage();
  let calls = 0;
  do {
    for (let i = 0; i < batch; i++) work();
    calls += batch;
  } while (cpuMsSince(start) < CASE_MS);
  return (flops * calls) / (cpuMsSince(start) / 1000) / 1e9;
}

function random(n: number, seed: number): Float64Array {
  let state = seed >>> 0;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = state / 4294967296 - 0.5;
  }
  return out;
}

/** A well-conditioned SPD matrix (XᵀX/n + I) and its lower Cholesky factor. */
function spd(n: number): { a: Float64Array; l: Float64Array } {
  const x = random(2 * n * n, n);
  const a = new Float64Array(n * n);
  gramAccumulate(x, 2 * n, n, a, 1 / (2 * n));
  for (let i = 0; i < n; i++) a[i * n + i] += 1;
  const l = new Float64Array(n * n);
  cholesky(a, n, l);
  return { a, l };
}

interface Case {
  readonly kernel: string;
  readonly size: string;
  readonly gflops: number;
}

const cases: Case[] = [];
function measure(kernel: string, size: string, flops: number, work: () => void): void {
  cases.push({ kernel, size, gflops: gflops(flops, work) });
}

for (const [m, n] of [[100, 100], [100, 1000], [200, 1000], [500, 1000], [400, 400]] as const) {
  const x = random(m * n, 1);
  const y = random(m * n, 2);
  const out = new Float64Array(m * m);
  measure('gemmNt X·Yᵀ', `${m}×${n}·(${m}×${n})ᵀ`, 2 * m * m * n, () => gemmNt(out, m, x, y, m, m, n, false));
  measure('gemmNt X·Yᵀ lower', `${m}×${n}·(${m}×${n})ᵀ`, m * (m + 1) * n, () => gemmNt(out, m, x, y, m, m, n, true));
}
for (const [m, k, n] of [[100, 100, 1000], [4, 100, 1000], [500, 500, 500]] as const) {
  const a = random(m * k, 3);
  const src = random(k * n, 4);
  const out = new Float64Array(m * n);
  measure('gemmNnAccumulate A·B', `${m}×${k}·${k}×${n}`, 2 * m * k * n, () => gemmNnAccumulate(out, 0, a, 0, k, src, 0, m, k, n));
}
for (const n of [100, 1000]) {
  for (const d of [10, 25, 100, 400]) {
    const x = random(n * d, 5);
    const out = new Float64Array(d * d);
    measure('gramAccumulate XᵀX', `n=${n} d=${d}`, n * d * (d + 1), () => gramAccumulate(x, n, d, out));
  }
}
for (const n of [10, 25, 100, 400, 500]) {
  const { a, l } = spd(n);
  const factor = new Float64Array(n * n);
  const inverse = new Float64Array(n * n);
  measure('cholesky', `n=${n}`, n ** 3 / 3, () => cholesky(a, n, factor));
  measure('choleskyInverse', `n=${n}`, (2 * n ** 3) / 3, () => choleskyInverse(l, n, inverse));
}
for (const [m, cols] of [[100, 1000], [200, 1000], [500, 1000], [100, 100]] as const) {
  const { l } = spd(m);
  const b0 = random(m * cols, 6);
  const b = b0.slice();
  const src = random(m * cols, 7);
  const out = new Float64Array(m * cols);
  measure('solveLowerRows L⁻¹B', `M=${m} cols=${cols}`, m * m * cols, () => {
    b.set(b0);
    solveLowerRows(l, m, b, cols);
  });
  measure('solveLowerTransposedTiled L⁻ᵀB', `M=${m} cols=${cols}`, m * m * cols, () => {
    b.set(b0);
    solveLowerTransposedTiled(l, m, b, cols);
  });
  measure('lowerTransposedTimesTiled LᵀB', `M=${m} n=${cols}`, m * m * cols, () => lowerTransposedTimesTiled(out, src, l, m, cols));
}
for (const d of [10, 25, 100, 400]) {
  const { a } = spd(d);
  const x = random(d, 8);
  const y = new Float64Array(d);
  measure('symmetricGemv A·x (per record)', `d=${d}`, 2 * d * d, () => symmetricGemv(a, d, x, y));
  measure('symmetricRank1Update A += αxxᵀ (per record)', `d=${d}`, 2 * d * d, () => symmetricRank1Update(a, d, 1e-12, x));
}

/** numpy's single-thread GEMM figures, or why they are missing. */
function numpyPeak(): { blas: string; gflops: number } | string {
  const script = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'python', 'gemm_peak.py');
  const oneThread = { OPENBLAS_NUM_THREADS: '1', MKL_NUM_THREADS: '1', OMP_NUM_THREADS: '1' };
  const run = spawnSync('python3', [script], { encoding: 'utf8', env: { ...process.env, ...oneThread }, timeout: 120_000 });
  if (run.error !== undefined) return `python3 not available (${run.error.message})`;
  if (run.status !== 0) return `gemm_peak.py failed: ${run.stderr.trim().split('\n').slice(-1)[0]}`;
  const report = JSON.parse(run.stdout.trim().split('\n').slice(-1)[0]) as { skip?: string; blas?: string; sizes?: { n: number; gflops: number }[] };
  if (report.skip !== undefined) return report.skip;
  return { blas: report.blas ?? 'numpy', gflops: Math.max(...(report.sizes ?? []).map((s) => s.gflops)) };
}

const numpy = numpyPeak();
const ours = Math.max(...cases.map((c) => c.gflops));
const best = cases.find((c) => c.gflops === ours);
process.stdout.write(`roofline of the dense kernels, one thread, CPU time, ${CASE_MS} ms per case; load average ${loadavg()[0].toFixed(2)}\n`);
process.stdout.write(typeof numpy === 'string'
  ? `peak: numpy part skipped: ${numpy} (pip install numpy to compare)\n`
  : `peak: ${numpy.blas} single-thread float64 GEMM ${numpy.gflops.toFixed(1)} GFLOP/s\n`);
process.stdout.write(`best of ours: ${ours.toFixed(1)} GFLOP/s (${best?.kernel} ${best?.size})\n`);
process.stdout.write(`${'kernel'.padEnd(44)} ${'size'.padEnd(22)} ${'GFLOP/s'.padStart(8)} ${'% numpy'.padStart(8)} ${'% best'.padStart(7)}\n`);
for (const c of cases) {
  const ofNumpy = typeof numpy === 'string' ? '—' : `${((100 * c.gflops) / numpy.gflops).toFixed(0)}%`;
  process.stdout.write(`${c.kernel.padEnd(44)} ${c.size.padEnd(22)} ${c.gflops.toFixed(2).padStart(8)} ${ofNumpy.padStart(8)} ${`${((100 * c.gflops) / ours).toFixed(0)}%`.padStart(7)}\n`);
}
