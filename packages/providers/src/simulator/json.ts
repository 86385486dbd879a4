/** JSON.stringify that writes bigints (money in minor units) as decimal strings. */
export function stringify(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}
