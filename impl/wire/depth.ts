/**
 * Nesting depth of JSON text, measured before parsing so that hostile input ("[[[[...")
 * never reaches a recursive parser or validator (spec/wire/PROTOCOL.md, MAX_NESTING_DEPTH).
 * Brackets inside strings do not count. Returns true iff the depth exceeds `max`.
 *
 * The text need not be valid JSON (W-1.5, review G-17): this is a lexical count, not a parse. A
 * `"` outside a string opens one; inside, `\` skips the next character and `"` closes it (an
 * unterminated string runs to the end of the line). Outside strings `[` and `{` add one, `]` and
 * `}` subtract one, unmatched or not, so the count may go below zero and is never reset. The
 * line is too deep iff the count ever exceeds `max`; whether the text parses is asked only after.
 */
export const nestsDeeperThan = (text: string, max: number): boolean => {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
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
