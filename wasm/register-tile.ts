// AssemblyScript: the 4×4 register tile (eight f64x2 sums, two columns per vector) shared by the tiled kernels.

/**
 * The 4×4 tile at `acc` (rows `accRow` bytes apart) += Σ_{q<count} a_rq·b_q, or −= with `subtract`, where a_rq is
 * the f64 at a + r·aRow + q·aStep for the tile's row r and b_q the 4 f64 at b + q·bRow: the eight sums stay in
 * registers, each b_q is loaded once for the four rows, and every entry takes its terms one by one in order q.
 */
// @ts-ignore: decorator
@inline
export function accumulateTile(acc: usize, accRow: usize, a: usize, aRow: usize, aStep: usize, b: usize, bRow: usize, count: i32, subtract: bool): void {
  const o1 = acc + accRow;
  const o2 = o1 + accRow;
  const o3 = o2 + accRow;
  let c0a = v128.load(acc);
  let c0b = v128.load(acc, 16);
  let c1a = v128.load(o1);
  let c1b = v128.load(o1, 16);
  let c2a = v128.load(o2);
  let c2b = v128.load(o2, 16);
  let c3a = v128.load(o3);
  let c3b = v128.load(o3, 16);
  let x = a;
  let y = b;
  for (let q = 0; q < count; q++) {
    const ba = v128.load(y);
    const bb = v128.load(y, 16);
    const x0 = v128.load64_splat(x);
    const x1 = v128.load64_splat(x + aRow);
    const x2 = v128.load64_splat(x + 2 * aRow);
    const x3 = v128.load64_splat(x + 3 * aRow);
    c0a = addOrSubtract(c0a, x0, ba, subtract);
    c0b = addOrSubtract(c0b, x0, bb, subtract);
    c1a = addOrSubtract(c1a, x1, ba, subtract);
    c1b = addOrSubtract(c1b, x1, bb, subtract);
    c2a = addOrSubtract(c2a, x2, ba, subtract);
    c2b = addOrSubtract(c2b, x2, bb, subtract);
    c3a = addOrSubtract(c3a, x3, ba, subtract);
    c3b = addOrSubtract(c3b, x3, bb, subtract);
    x += aStep;
    y += bRow;
  }
  storeTile(acc, accRow, false, c0a, c0b, c1a, c1b, c2a, c2b, c3a, c3b);
}

/** c + x·b, or c − x·b with `subtract` (a constant at each inlined call). */
// @ts-ignore: decorator
@inline
function addOrSubtract(c: v128, x: v128, b: v128, subtract: bool): v128 {
  return subtract ? f64x2.sub(c, f64x2.mul(x, b)) : f64x2.add(c, f64x2.mul(x, b));
}

/**
 * Stores the 4×4 tile (c0a c0b / c1a c1b / c2a c2b / c3a c3b, two columns per vector) at `o` with rows `rowBytes`
 * apart; with `lowerOnly` (a tile on the diagonal) only its entries on and below the diagonal.
 */
// @ts-ignore: decorator
@inline
export function storeTile(o: usize, rowBytes: usize, lowerOnly: bool, c0a: v128, c0b: v128, c1a: v128, c1b: v128, c2a: v128, c2b: v128, c3a: v128, c3b: v128): void {
  const o1 = o + rowBytes;
  const o2 = o1 + rowBytes;
  const o3 = o2 + rowBytes;
  if (lowerOnly) {
    store<f64>(o, f64x2.extract_lane(c0a, 0));
    v128.store(o1, c1a);
    v128.store(o2, c2a);
    store<f64>(o2, f64x2.extract_lane(c2b, 0), 16);
  } else {
    v128.store(o, c0a);
    v128.store(o, c0b, 16);
    v128.store(o1, c1a);
    v128.store(o1, c1b, 16);
    v128.store(o2, c2a);
    v128.store(o2, c2b, 16);
  }
  v128.store(o3, c3a);
  v128.store(o3, c3b, 16);
}
