import type { CardDetails } from '../../connector.js';

/** A request the acquirer cannot read: answered with code 30. */
export class FormatError extends Error {}

// Messages name the field, never its value: values may be card data.

export function object(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new FormatError(`${name} must be an object`);
  return value as Record<string, unknown>;
}

export function text(value: unknown, name: string, pattern = /^.{1,255}$/su): string {
  if (typeof value !== 'string' || !pattern.test(value)) throw new FormatError(`${name} is missing or malformed`);
  return value;
}

export function minorUnits(value: unknown, name: string, { allowZero = false } = {}): bigint {
  if (typeof value !== 'string' || !/^(0|[1-9][0-9]{0,17})$/.test(value) || (value === '0' && !allowZero)) {
    throw new FormatError(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer of minor units, as a string`);
  }
  return BigInt(value);
}

export function integer(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new FormatError(`${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}

export function boolean(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') throw new FormatError(`${name} must be a boolean`);
  return value;
}

export function optional<T>(value: unknown, parse: (value: unknown) => T): T | undefined {
  return value === undefined ? undefined : parse(value);
}

export const CVC = /^[0-9]{3,4}$/;

export function expiryMonth(value: unknown, name: string): number {
  return integer(value, name, 1, 12);
}

export function expiryYear(value: unknown, name: string): number {
  return integer(value, name, 2000, 9999);
}

/** Card details; the number is read from `numberField`. */
export function card(value: unknown, name: string, numberField = 'number'): CardDetails {
  const c = object(value, name);
  return {
    number: text(c[numberField], `${name}.${numberField}`, /^[0-9]{12,19}$/),
    expiryMonth: expiryMonth(c.expiryMonth, `${name}.expiryMonth`),
    expiryYear: expiryYear(c.expiryYear, `${name}.expiryYear`),
    cvc: optional(c.cvc, (v) => text(v, `${name}.cvc`, CVC)),
    cardholder: optional(c.cardholder, (v) => text(v, `${name}.cardholder`)),
  };
}
