import { ADYEN } from './adyen/type.js';
import { CHECKOUT } from './checkout/type.js';
import { DUMMY } from './dummy/type.js';
import { NAB_TRANSACT } from './nab_transact/type.js';
import type { ProviderType } from './provider-type.js';
import { STRIPE } from './stripe/type.js';

/** Every provider type the gateway can create, by its `type`. */
export const PROVIDER_TYPES: ReadonlyMap<string, ProviderType> = new Map(
  [DUMMY, STRIPE, ADYEN, CHECKOUT, NAB_TRANSACT].map((definition) => [definition.type, definition]),
);

/** A type by name in any case, or undefined. */
export function providerType(type: string): ProviderType | undefined {
  return PROVIDER_TYPES.get(type.toLowerCase());
}
