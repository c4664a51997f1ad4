/** Sizes of the packed `direct-bnn` statistics for D = d + 1 inputs: C(D+3, 4) fourth moments and C(D+1, 2) label-weighted second moments. */
export function directBnnPackedSizes(D: number): { readonly fourth: number; readonly crossY: number } {
  return { fourth: (D * (D + 1) * (D + 2) * (D + 3)) / 24, crossY: (D * (D + 1)) / 2 };
}
