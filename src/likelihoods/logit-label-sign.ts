/** The sign s of a binary label for log σ(s·f): 1 → +1; 0 or −1 → −1; anything else → NaN (so it cannot pass silently). */
export function logitLabelSign(y: number): number {
  if (y === 1) return 1;
  if (y === 0 || y === -1) return -1;
  return Number.NaN;
}
