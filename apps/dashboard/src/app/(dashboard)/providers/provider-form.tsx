'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type ChangeEvent } from 'react';
import { Field } from '../../../components/field';
import { fieldErrors, useTRPC } from '../../../lib/trpc';
import type { Outputs } from '../../../lib/types';
import { ServerError } from '../../../components/server-error';

type Provider = Outputs['provider']['get'];
export type ProviderType = Outputs['info']['providerTypes']['providerTypes'][number];
type Environment = 'SANDBOX' | 'PRODUCTION';

/** What the gateway answers for every stored credential: sent back, it keeps the stored value. */
const MASKED = '********';

/** The account's provider types (GET /info/provider_types): their parameters, currencies and operations. */
export function useProviderTypes(): ProviderType[] {
  const trpc = useTRPC();
  return useQuery(trpc.info.providerTypes.queryOptions({})).data?.providerTypes ?? [];
}

/**
 * Creates a provider, or edits one: each type with its own credential fields (from the registry).
 * Stored credentials are never shown: their fields start empty, and an empty field keeps the value.
 */
export function ProviderForm({ provider, onSaved }: { provider?: Provider; onSaved?: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const types = useProviderTypes();
  // No type is preselected: each registered type is offered alike, and the credentials follow the choice.
  const [type, setType] = useState(provider?.type ?? '');
  const [environment, setEnvironment] = useState<Environment>(provider?.environment ?? 'SANDBOX');
  const [fields, setFields] = useState({
    name: provider?.name ?? '',
    currency: provider?.currency ?? '',
    country: provider?.providerCountry ?? '',
  });
  const [credentials, setCredentials] = useState<Record<string, string>>({});
  const chosen = types.find((t) => t.type === type);
  const stored = new Set(Object.keys(provider?.authenticationParameters ?? {}));

  const saved = async (result: Provider) => {
    setCredentials({});
    await queryClient.invalidateQueries(trpc.provider.pathFilter());
    if (provider) onSaved?.();
    else router.push(`/providers/${result.providerId}`);
  };
  const create = useMutation(trpc.provider.create.mutationOptions({ onSuccess: saved }));
  const update = useMutation(trpc.provider.update.mutationOptions({ onSuccess: saved }));
  const mutation = provider ? update : create;
  const errors = fieldErrors(mutation.error);

  const set = (name: keyof typeof fields) => (event: ChangeEvent<HTMLInputElement>) =>
    setFields((current) => ({ ...current, [name]: event.target.value }));

  function submit() {
    const optional = (value: string) => value.trim() || undefined;
    // Editing: a parameter left empty is sent back masked, which keeps the stored value.
    const given = Object.fromEntries(
      (chosen?.parameters ?? []).flatMap((p) => {
        const value = credentials[p.name]?.trim();
        if (value) return [[p.name, value]];
        return stored.has(p.name) ? [[p.name, MASKED]] : [];
      }),
    );
    const common = {
      name: fields.name,
      currency: optional(fields.currency.toUpperCase()),
      providerCountry: optional(fields.country.toUpperCase()),
      authenticationParameters: given,
    };
    if (provider) update.mutate({ providerId: provider.providerId, ...common });
    else create.mutate({ type, environment, ...common });
  }

  return (
    <form
      className="card stack"
      aria-label={provider ? 'Edit the provider' : 'New provider'}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {provider ? (
        <h2>Edit</h2>
      ) : (
        <div className="form-grid">
          <Field label="Type" error={errors.type}>
            {(props) => (
              <select {...props} name="type" value={type} onChange={(event) => setType(event.target.value)} required>
                <option value="" disabled>
                  Choose a type
                </option>
                {types.map((t) => (
                  <option key={t.type} value={t.type}>
                    {t.displayName}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Environment" error={errors.environment} hint="SANDBOX: the provider's test endpoint; PRODUCTION: its live one">
            {(props) => (
              <select
                {...props}
                name="environment"
                value={environment}
                onChange={(event) => setEnvironment(event.target.value as Environment)}
              >
                <option value="SANDBOX">SANDBOX</option>
                <option value="PRODUCTION">PRODUCTION</option>
              </select>
            )}
          </Field>
        </div>
      )}
      <Field label="Name" error={errors.name}>
        {(props) => <input {...props} name="name" value={fields.name} onChange={set('name')} required maxLength={100} />}
      </Field>
      <div className="form-grid">
        <Field label="Default currency" error={errors.currency} hint="ISO 4217; the provider takes every currency its type supports">
          {(props) => <input {...props} name="currency" value={fields.currency} onChange={set('currency')} maxLength={3} />}
        </Field>
        <Field label="Country" error={errors.providerCountry} hint="ISO 3166 alpha-3 of the acquirer (domestic or international fees)">
          {(props) => <input {...props} name="country" value={fields.country} onChange={set('country')} maxLength={3} />}
        </Field>
      </div>
      {chosen && chosen.parameters.length > 0 && (
        <fieldset className="stack">
          <legend>Credentials</legend>
          {chosen.parameters.map((p) => {
            const required = p.requiredIn.includes(provider?.environment ?? environment);
            const hint = stored.has(p.name) ? `${p.description} Set: leave empty to keep it.` : p.description;
            return (
              <Field key={`${chosen.type}-${p.name}`} label={p.name} hint={hint} error={errors[`authenticationParameters.${p.name}`]}>
                {(props) => (
                  <input
                    {...props}
                    name={p.name}
                    type={p.secret ? 'password' : 'text'}
                    autoComplete="off"
                    value={credentials[p.name] ?? ''}
                    required={required && !stored.has(p.name)}
                    onChange={(event) => setCredentials((current) => ({ ...current, [p.name]: event.target.value }))}
                  />
                )}
              </Field>
            );
          })}
        </fieldset>
      )}
      <ServerError error={mutation.error} />
      <div>
        <button type="submit" disabled={mutation.isPending}>
          {mutation.isPending ? 'Saving…' : provider ? 'Save the provider' : 'Create the provider'}
        </button>
      </div>
    </form>
  );
}
