// AssemblyScript: storing a 4×4 register tile of row-major Float64 results, shared by the tiled kernels.

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
