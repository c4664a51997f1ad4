/**
 * How deep arrays and objects nest in JSON `text` (0 for a scalar), counting brackets outside
 * strings, in one pass without recursion; stops counting once past `limit` (and returns a value
 * over it). Malformed text gets a number too: `JSON.parse` judges the syntax.
 */
export function jsonNestingDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}
