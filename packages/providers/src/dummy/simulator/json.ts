/** JSON.stringify that writes bigints (money in minor units) as decimal strings. */
export function stringify(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/** Fields that hold money: bigints in memory, decimal strings in JSON. */
const MONEY = new Set(['amount', 'captured', 'refunded', 'maximumAmount']);

/** JSON.parse for what `stringify` wrote of the ledger: money fields come back as bigints. */
export function parseLedgerJson(text: string): unknown {
  return JSON.parse(text, (key, v: unknown) => (MONEY.has(key) && typeof v === 'string' ? BigInt(v) : v));
}
