/**
 * Nesting depth of JSON text, measured before parsing so that hostile input ("[[[[...")
 * never reaches a recursive parser or validator (spec/wire/PROTOCOL.md, MAX_NESTING_DEPTH).
 * Brackets inside strings do not count. Returns true iff the depth exceeds `max`.
 */
export const nestsDeeperThan = (text: string, max: number): boolean => {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
};
