/**
 * One pass over a JSON text before JSON.parse sees it, outside strings:
 * - how deeply arrays and objects nest: a body nested thousands of levels deep parses, but every
 *   recursive step after it (re-serialising, validating, logging) could exhaust the stack, so it
 *   is refused first, at a cost linear in its length;
 * - number literals with more significant digits than a double holds exactly: JSON.parse would
 *   silently turn `10.0000000000000000001` into 10, so such a request is refused instead (clients
 *   send such values as strings).
 */
const MAX_SIGNIFICANT_DIGITS = 15;

export interface JsonScan {
  /** Arrays and objects nest deeper than the limit (the scan stopped there). */
  tooDeep: boolean;
  /** The first number literal a double cannot hold exactly. */
  impreciseNumber: string | undefined;
}

export function scanJson(json: string, maxDepth: number): JsonScan {
  let inString = false;
  let depth = 0;
  let impreciseNumber: string | undefined;
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
    } else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return { tooDeep: true, impreciseNumber };
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
    } else if (impreciseNumber === undefined && (c === 0x2d || (c >= 0x30 && c <= 0x39))) {
      let end = i + 1;
      while (end < json.length && /[0-9.eE+-]/.test(json.charAt(end))) end += 1;
      const literal = json.slice(i, end);
      const mantissa = literal.replace(/[eE].*$/, '').replace(/[-.]/g, '');
      const significant = mantissa.replace(/^0+/, '').replace(/0+$/, '');
      if (significant.length > MAX_SIGNIFICANT_DIGITS) impreciseNumber = literal;
      i = end - 1;
    }
  }
  return { tooDeep: false, impreciseNumber };
}
