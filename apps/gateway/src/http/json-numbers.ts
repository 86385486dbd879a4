/**
 * JSON.parse turns every number into a double, so `10.0000000000000000001` would silently become
 * 10. This finds number literals (outside strings) with more significant digits than a double
 * holds exactly, so the request can be refused instead: clients send such values as strings.
 */
const MAX_SIGNIFICANT_DIGITS = 15;

export function findImpreciseNumber(json: string): string | undefined {
  let inString = false;
  for (let i = 0; i < json.length; i += 1) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) {
      inString = true;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < json.length && /[0-9.eE+-]/.test(json.charAt(end))) end += 1;
      const literal = json.slice(i, end);
      const mantissa = literal.replace(/[eE].*$/, '').replace(/[-.]/g, '');
      const significant = mantissa.replace(/^0+/, '').replace(/0+$/, '');
      if (significant.length > MAX_SIGNIFICANT_DIGITS) return literal;
      i = end - 1;
    }
  }
  return undefined;
}
