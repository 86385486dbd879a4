/**
 * Dates as the client SDKs send them (in queries and bodies), all read as instants:
 * - epoch milliseconds (Java bodies), as a number or digit string;
 * - ISO 8601 with or without offset (no offset = UTC);
 * - "yyyy-MM-dd HH:mm:ss", also with the .NET client's stray space "yyyy-MM-dd HH: mm:ss" (UTC);
 * - "yyyy-MM-dd" (UTC midnight);
 * - java.util.Date#toString: "Tue Nov 14 22:13:20 UTC 2023".
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

// Offsets in minutes of the zone names java.util.Date prints for common JVM time zones.
const ZONES: Readonly<Record<string, number>> = {
  UTC: 0,
  GMT: 0,
  Z: 0,
  BST: 60,
  CET: 60,
  CEST: 120,
  EET: 120,
  EEST: 180,
  IST: 330,
  SGT: 480,
  HKT: 480,
  JST: 540,
  KST: 540,
  AWST: 480,
  ACST: 570,
  ACDT: 630,
  AEST: 600,
  AEDT: 660,
  NZST: 720,
  NZDT: 780,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
};

const JAVA_DATE = /^[A-Za-z]{3} ([A-Za-z]{3}) (\d{1,2}) (\d{2}):(\d{2}):(\d{2}) ([A-Za-z]+) (\d{4})$/;
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):\s*(\d{2})(?::\s*(\d{2})(?:\.(\d{1,9}))?)?)?$/;

/** 0001-01-01 to 9999-12-31 (UTC): the years ISO 8601 writes in four digits, and the database takes. */
const EARLIEST_MS = -62_135_596_800_000;
const LATEST_MS = 253_402_300_799_999;

function valid(ms: number): Date | undefined {
  return Number.isFinite(ms) && ms >= EARLIEST_MS && ms <= LATEST_MS ? new Date(ms) : undefined;
}

/** Date.UTC, but years 0–99 are those years, not 1900–1999. */
function utc(year: number, monthIndex: number, day: number, hours = 0, minutes = 0, seconds = 0, ms = 0): number {
  const date = new Date(Date.UTC(2000, monthIndex, day, hours, minutes, seconds, ms));
  date.setUTCFullYear(year + date.getUTCFullYear() - 2000);
  return date.getTime();
}

export function parseWireDate(value: string | number): Date | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? valid(value) : undefined;
  const text = value.trim();
  if (/^-?\d{9,}$/.test(text)) return valid(Number(text));

  const local = LOCAL_DATE_TIME.exec(text);
  if (local) {
    const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '0'] = local;
    const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
    const date = utc(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
    const check = new Date(date);
    return check.getUTCDate() === Number(d) && check.getUTCMonth() === Number(mo) - 1 ? valid(date) : undefined;
  }

  const java = JAVA_DATE.exec(text);
  if (java) {
    const [, mon = '', d, h, mi, s, zone = '', y] = java;
    const month = MONTHS.indexOf(mon.toLowerCase());
    const offset = ZONES[zone.toUpperCase()];
    if (month < 0 || offset === undefined) return undefined;
    return valid(utc(Number(y), month, Number(d), Number(h), Number(mi), Number(s)) - offset * 60_000);
  }

  // ISO 8601 with an offset or Z; a day the month does not have (02-30) is refused, not rolled over.
  const iso = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.exec(text);
  if (iso) {
    const [, y, mo, d] = iso;
    const calendarDay = new Date(utc(Number(y), Number(mo) - 1, Number(d)));
    if (calendarDay.getUTCDate() !== Number(d) || calendarDay.getUTCMonth() !== Number(mo) - 1) return undefined;
    return valid(Date.parse(text));
  }
  return undefined;
}
