/** The reason a feature, label or weight is refused for its magnitude, naming the bound. */
export function outOfRangeReason(what: 'feature' | 'label' | 'weight', maxAbsInput: number): string {
  const bound = Math.abs(Math.log10(maxAbsInput)) >= 6 ? maxAbsInput.toExponential() : String(maxAbsInput);
  return `${what} is out of range: |value| > maxAbsInput (${bound})`;
}
