import { ApiError } from '@gateway/core';
import { PROVIDER_TYPES, providerType, type Environment, type ProviderType } from '@gateway/providers';

/** Provider types this gateway can create (the registry of packages/providers); all of them take card payments. */
export const CARD_PROVIDER_TYPES: readonly string[] = [...PROVIDER_TYPES.keys()];

/** How a provider's connector behaves, from its authenticationParameters. */
export interface ConnectorSettings {
  latency: { minMs: number; maxMs: number };
  timeoutMs: number;
  settlementDelayMs: number;
}

interface Setting {
  name: string;
  min: number;
  max: number;
}

const MIN_LATENCY: Setting = { name: 'MinMilliseconds', min: 0, max: 60_000 };
const MAX_LATENCY: Setting = { name: 'MaxMilliseconds', min: 0, max: 60_000 };
const TIMEOUT: Setting = { name: 'TimeoutMilliseconds', min: 100, max: 60_000 };
const SETTLEMENT_DELAY: Setting = { name: 'SettlementDelayMilliseconds', min: 0, max: 86_400_000 };

/** The type of that name (any case), or 100 Provider Not Supported with the supported list. */
export function supportedType(type: string): ProviderType {
  const known = providerType(type);
  if (!known) {
    const supported = CARD_PROVIDER_TYPES.join(', ');
    throw new ApiError('ProviderNotSupported', { message: `Provider type ${type} is not supported (supported: ${supported})` });
  }
  return known;
}

/** A provider's parameters as stored, and the connector settings they give (the simulated acquirer's only). */
export interface CheckedParameters {
  credentials: Record<string, string>;
  settings: Partial<ConnectorSettings>;
}

/**
 * The authenticationParameters of a provider of `type` in `environment`, checked: the simulated
 * acquirer's settings (dummySettings), or the type's own credentials under their canonical names.
 * 90 (400) naming each missing or malformed parameter; the values are never repeated.
 */
export function checkedParameters(type: ProviderType, parameters: Record<string, string>, environment: Environment): CheckedParameters {
  if (type.type === 'dummy') return { credentials: parameters, settings: dummySettings(parameters) };
  const checked = type.checkParameters(parameters, environment);
  if (!checked.ok) {
    const names = Object.keys(checked.problems);
    throw new ApiError('ValidationError', {
      message: `Invalid authenticationParameters for a ${environment} ${type.type} provider: ${names.join(', ')}`,
      details: Object.fromEntries(Object.entries(checked.problems).map(([name, problem]) => [`authenticationParameters.${name}`, problem])),
    });
  }
  return { credentials: checked.parameters, settings: {} };
}

/**
 * The settings of a `dummy` connector (the simulated acquirer), from its authenticationParameters
 * (names in any case): whole milliseconds in range, else 90 naming the parameter. Latency absent
 * is 20–150 ms, and one bound given alone moves the other as far as needed to stay a range.
 */
export function dummySettings(parameters: Record<string, string>): ConnectorSettings {
  const byName = new Map(Object.entries(parameters).map(([key, value]) => [key.toLowerCase(), { key, value }]));
  const read = (setting: Setting): number | undefined => {
    const given = byName.get(setting.name.toLowerCase());
    if (!given) return undefined;
    const value = /^\d{1,9}$/.test(given.value.trim()) ? Number(given.value) : Number.NaN;
    if (!(value >= setting.min && value <= setting.max)) {
      throw new ApiError('ValidationError', {
        message: `${setting.name} must be a whole number of milliseconds from ${setting.min} to ${setting.max}`,
        details: { [`authenticationParameters.${given.key}`]: `A whole number from ${setting.min} to ${setting.max}` },
      });
    }
    return value;
  };
  const min = read(MIN_LATENCY);
  const max = read(MAX_LATENCY);
  const minMs = min ?? Math.min(20, max ?? 20);
  const maxMs = max ?? Math.max(150, minMs);
  if (minMs > maxMs) {
    throw new ApiError('ValidationError', {
      message: 'MaxMilliseconds must not be below MinMilliseconds',
      details: { 'authenticationParameters.MaxMilliseconds': 'At least MinMilliseconds' },
    });
  }
  return { latency: { minMs, maxMs }, timeoutMs: read(TIMEOUT) ?? 10_000, settlementDelayMs: read(SETTLEMENT_DELAY) ?? 2_000 };
}

/** The environment a provider row was created for (its endpoint, and which credentials it takes). */
export function environmentOf(provider: { environment: string }): Environment {
  return provider.environment === 'PRODUCTION' ? 'PRODUCTION' : 'SANDBOX';
}
