'use client';

import { useQuery } from '@tanstack/react-query';
import { DataTable } from '../../../components/data-table';
import { Loaded } from '../../../components/loaded';
import { formatDate } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import type { Outputs } from '../../../lib/types';

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

/** The account's webhook subscriptions and whether each endpoint answers. */
export function WebhookEndpoints() {
  const trpc = useTRPC();
  const endpoints = useQuery(trpc.dashboard.webhookEndpoints.queryOptions());
  return (
    <Loaded query={endpoints}>
      {(rows) => (
        <DataTable
          caption="Webhook subscriptions"
          rows={rows}
          rowKey={(e) => e.webhookSubscriptionId}
          columns={[
            { header: 'URL', cell: (e: Endpoint) => <code>{e.url}</code> },
            { header: 'Events', cell: (e: Endpoint) => e.types.join(', ') },
            { header: 'State', cell: (e: Endpoint) => <State endpoint={e} /> },
          ]}
        />
      )}
    </Loaded>
  );
}
