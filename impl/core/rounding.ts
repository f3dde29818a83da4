/** D-002: exact integer quotient rounded half to even, for the confidence-weighted mean. */

/** round(num / den) with ties to even; `den` must be positive. */
export const divRoundHalfEven = (num: bigint, den: bigint): bigint => {
  if (den <= 0n) throw new RangeError("divRoundHalfEven: denominator must be positive");
  const negative = num < 0n;
  const n = negative ? -num : num;
  let q = n / den;
  const twiceRemainder = (n % den) * 2n;
  if (twiceRemainder > den || (twiceRemainder === den && q % 2n === 1n)) q += 1n;
  return negative ? -q : q;
};
