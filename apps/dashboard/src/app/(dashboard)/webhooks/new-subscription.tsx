'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { Field } from '../../../components/field';
import { Message } from '../../../components/message';
import { ServerError } from '../../../components/server-error';
import { fieldErrors, useTRPC } from '../../../lib/trpc';

const TYPES = ['Transaction', 'Customer', 'PaymentMethod', 'Subscription', 'Batch'] as const;
const TYPE_NAMES: Record<(typeof TYPES)[number], string> = {
  Transaction: 'Charges',
  Customer: 'Customers',
  PaymentMethod: 'Payment methods',
  Subscription: 'Subscriptions',
  Batch: 'Batches',
};

/** Subscribes a URL to events (POST /webhook/subscription): the gateway refuses one that points into its own network. */
export function NewSubscription() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [authorization, setAuthorization] = useState('');
  const [types, setTypes] = useState<string[]>(['Transaction']);
  const create = useMutation(
    trpc.webhook.createSubscription.mutationOptions({
      onSuccess: async () => {
        setUrl('');
        setAuthorization('');
        await queryClient.invalidateQueries(trpc.dashboard.webhookEndpoints.pathFilter());
      },
    }),
  );
  const problems = fieldErrors(create.error);
  // Set at once (isPending disables the button only once React renders again): a double click subscribes once.
  const busy = useRef(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy.current) return;
    busy.current = true;
    create.mutate(
      { url: url.trim(), types: types as Array<(typeof TYPES)[number]>, ...(authorization && { authorization }) },
      { onSettled: () => (busy.current = false) },
    );
  };
  return (
    <section className="card" aria-labelledby="new-subscription">
      <h2 id="new-subscription">Add a subscription</h2>
      <form className="stack" onSubmit={submit}>
        <Field label="URL" hint="http or https; it must be reachable from the internet" error={problems.url}>
          {(props) => <input {...props} type="url" required maxLength={2000} value={url} onChange={(e) => setUrl(e.target.value)} />}
        </Field>
        <Field label="Authorization header (optional)" hint="Sent with every delivery; never shown again" error={problems.authorization}>
          {(props) => (
            <input {...props} type="password" autoComplete="off" value={authorization} onChange={(e) => setAuthorization(e.target.value)} />
          )}
        </Field>
        <fieldset className="field checkboxes">
          <legend>Events</legend>
          {TYPES.map((type) => (
            <label key={type}>
              <input
                type="checkbox"
                checked={types.includes(type)}
                onChange={(e) => setTypes((now) => (e.target.checked ? [...now, type] : now.filter((t) => t !== type)))}
              />
              {TYPE_NAMES[type]}
            </label>
          ))}
        </fieldset>
        <div>
          <button type="submit" disabled={create.isPending || types.length === 0}>
            {create.isPending ? 'Adding…' : 'Add subscription'}
          </button>
        </div>
        <ServerError error={create.error} />
        <Message kind="success">{create.isSuccess ? `Subscribed ${create.data.url}.` : null}</Message>
      </form>
    </section>
  );
}
