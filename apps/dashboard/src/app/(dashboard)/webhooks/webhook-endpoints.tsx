'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable } from '../../../components/data-table';
import { Loaded } from '../../../components/loaded';
import { Message } from '../../../components/message';
import { ServerError } from '../../../components/server-error';
import { formatDate } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import type { Outputs } from '../../../lib/types';
import { TestDeliveryAnswer } from './test-delivery';

type Endpoint = Outputs['dashboard']['webhookEndpoints'][number];

/** Failing from 5 failed attempts in a row: the endpoint gets nothing until its pause ends (docs/webhooks.md). */
function State({ endpoint }: { endpoint: Endpoint }) {
  if (!endpoint.failing) return <span className="badge good">Healthy</span>;
  return (
    <>
      <span className="badge bad">Failing</span> since {formatDate(endpoint.failingSince)}, {endpoint.failures} failed attempts in a row;
      next try {formatDate(endpoint.pausedUntil)}
    </>
  );
}

/** Removal asks once more: the subscription gets nothing from then on, and its pending deliveries stop. */
function RemoveButton({ endpoint, onRemove, busy }: { endpoint: Endpoint; onRemove: () => void; busy: boolean }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="secondary" onClick={() => setAsking(true)} aria-label={`Remove ${endpoint.url}`}>
        Remove
      </button>
    );
  }
  return (
    <span className="row">
      <button type="button" className="danger" disabled={busy} onClick={onRemove} autoFocus>
        Remove {endpoint.url}
      </button>
      <button type="button" className="secondary" onClick={() => setAsking(false)}>
        Keep
      </button>
    </span>
  );
}

/** The account's webhook subscriptions, whether each endpoint answers; send one a test event, or remove it. */
export function WebhookEndpoints() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const endpoints = useQuery(trpc.dashboard.webhookEndpoints.queryOptions());
  const [tested, setTested] = useState<{ messageId: string; url: string }>();
  const sendTest = useMutation(trpc.webhook.sendTest.mutationOptions());
  const remove = useMutation(
    trpc.webhook.deleteSubscription.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.dashboard.webhookEndpoints.pathFilter()),
    }),
  );
  const test = (endpoint: Endpoint) =>
    sendTest.mutate(
      { webhookSubscriptionId: endpoint.webhookSubscriptionId },
      {
        onSuccess: async ({ messageId }) => {
          setTested({ messageId, url: endpoint.url });
          await queryClient.invalidateQueries(trpc.webhook.searchDeliveries.pathFilter());
        },
      },
    );
  return (
    <section className="stack" aria-labelledby="subscriptions">
      <h2 id="subscriptions">Subscriptions</h2>
      <Loaded query={endpoints}>
        {(rows) => (
          <DataTable
            caption="Webhook subscriptions"
            rows={rows}
            rowKey={(e) => e.webhookSubscriptionId}
            columns={[
              { header: 'URL', cell: (e: Endpoint) => <code className="wrap">{e.url}</code> },
              { header: 'Events', cell: (e: Endpoint) => e.types.join(', ') },
              { header: 'State', cell: (e: Endpoint) => <State endpoint={e} /> },
              {
                header: 'Actions',
                cell: (e: Endpoint) => (
                  <span className="row">
                    <button type="button" disabled={sendTest.isPending} onClick={() => test(e)} aria-label={`Send test to ${e.url}`}>
                      Send test
                    </button>
                    <RemoveButton
                      endpoint={e}
                      busy={remove.isPending}
                      onRemove={() => remove.mutate({ webhookSubscriptionId: e.webhookSubscriptionId })}
                    />
                  </span>
                ),
              },
            ]}
          />
        )}
      </Loaded>
      <div role="status">{tested && <TestDeliveryAnswer key={tested.messageId} {...tested} />}</div>
      <ServerError error={sendTest.error ?? remove.error} />
      <Message kind="success">{remove.isSuccess ? `Removed ${remove.data.url}: it gets no more events.` : null}</Message>
    </section>
  );
}
