import { open, type Keyring } from '@gateway/core';
import type { Provider } from '@gateway/db';
import { providerCredentialsAad, sealedValue } from '../sealed-data';

type SealedCredentials = Pick<Provider, 'id' | 'credentialsKeyId' | 'credentialsKey' | 'credentials'>;

// Provider rows are read once and shared while they stay unchanged (provider-cache.ts): each is opened once.
const opened = new WeakMap<SealedCredentials, Readonly<Record<string, string>>>();

/** A provider's authenticationParameters, opened from their sealed column (never answer or log them). */
export function storedParameters(provider: SealedCredentials, keyring: Keyring): Readonly<Record<string, string>> {
  const known = opened.get(provider);
  if (known) return known;
  const sealed = sealedValue(provider.credentialsKeyId, provider.credentialsKey, provider.credentials);
  const parameters = sealed ? (JSON.parse(open(sealed, providerCredentialsAad(provider.id), keyring)) as Record<string, string>) : {};
  opened.set(provider, parameters);
  return parameters;
}
