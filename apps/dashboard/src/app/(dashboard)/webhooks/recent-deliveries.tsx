'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from '../../../components/data-table';
import { Loaded } from '../../../components/loaded';
import { Message } from '../../../components/message';
import { ServerError } from '../../../components/server-error';
import { formatDate } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import type { Outputs } from '../../../lib/types';

type Delivery = Outputs['webhook']['searchDeliveries']['deliveries'][number];

const STATE: Record<Delivery['status'], { word: string; tone: string }> = {
  DELIVERED: { word: 'Delivered', tone: ' good' },
  PENDING: { word: 'Waiting', tone: '' },
  FAILED: { word: 'Failed', tone: ' bad' },
};

/** The last answer: its HTTP status, or why none came. */
const lastAnswer = (d: Delivery) => (d.lastStatusCode !== null ? String(d.lastStatusCode) : (d.lastError ?? '—'));

/**
 * The latest deliveries of the account's events, newest first (GET /webhook/delivery), kept fresh
 * while one waits; a failed or waiting one can be retried now: the same delivery and webhook-id,
 * so a receiver that keeps the ids it handled takes it once.
 */
export function RecentDeliveries() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const deliveries = useQuery({
    ...trpc.webhook.searchDeliveries.queryOptions({ limit: 20 }),
    refetchInterval: (query) => (query.state.data?.deliveries.some((d) => d.status === 'PENDING') ? 2000 : false),
  });
  const retry = useMutation(
    trpc.webhook.retryDelivery.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.webhook.searchDeliveries.pathFilter()),
    }),
  );
  return (
    <section className="stack" aria-labelledby="recent-deliveries">
      <h2 id="recent-deliveries">Recent deliveries</h2>
      <Loaded query={deliveries}>
        {({ deliveries: rows }) => (
          <DataTable
            caption="Recent webhook deliveries"
            rows={rows}
            rowKey={(d) => d.deliveryId}
            columns={[
              {
                header: 'Event',
                cell: (d: Delivery) => (
                  <span className="wrap">
                    {d.eventType} of <code>{d.resourceId}</code>
                    <br />
                    <span className="hint">{formatDate(d.createdDate)}</span>
                  </span>
                ),
              },
              { header: 'URL', cell: (d: Delivery) => <code className="wrap">{d.url}</code> },
              { header: 'Status', cell: (d: Delivery) => <span className={`badge${STATE[d.status].tone}`}>{STATE[d.status].word}</span> },
              { header: 'Last answer', cell: (d: Delivery) => <span className="wrap">{lastAnswer(d)}</span> },
              { header: 'Attempts', cell: (d: Delivery) => d.attempts, numeric: true },
              { header: 'Next attempt', cell: (d: Delivery) => formatDate(d.nextAttemptAt) },
              {
                header: 'Retry',
                cell: (d: Delivery) =>
                  d.status === 'DELIVERED' ? null : (
                    <button
                      type="button"
                      className="secondary"
                      disabled={retry.isPending}
                      onClick={() => retry.mutate({ deliveryId: d.deliveryId })}
                      aria-label={`Retry now: ${d.eventType} to ${d.url}`}
                    >
                      Retry now
                    </button>
                  ),
              },
            ]}
          />
        )}
      </Loaded>
      <ServerError error={retry.error} />
      <Message kind="success">{retry.isSuccess ? `Retrying the delivery to ${retry.data.url} now.` : null}</Message>
    </section>
  );
}
