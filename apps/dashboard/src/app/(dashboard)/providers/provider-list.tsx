'use client';

import { useQuery } from '@tanstack/react-query';
import { SearchView, useSearch } from '../../../components/search';
import { useTRPC } from '../../../lib/trpc';
import type { Outputs } from '../../../lib/types';
import { latencyText, useSimulatedLatency } from './latency';
import { DetailLink } from '../../../components/detail-link';

type Provider = Outputs['provider']['get'];

/**
 * The account's providers (GET /provider pages them; it has no filters), with fees, simulated
 * latency, and how many of their captures, voids and refunds wait for a notification.
 */
export function ProviderList() {
  const trpc = useTRPC();
  const search = useSearch([]);
  const query = useQuery(trpc.provider.list.queryOptions(search.paging));
  const latency = useSimulatedLatency();
  const waiting = new Map(
    (useQuery(trpc.dashboard.providerNotifications.queryOptions({})).data?.pending ?? []).map((p) => [p.providerId, p.count]),
  );
  return (
    <SearchView
      search={search}
      query={query}
      select={(data) => ({ rows: data.providers, count: data.count })}
      caption="Providers"
      rowKey={(p) => p.providerId}
      columns={[
        { header: 'Name', cell: (p: Provider) => <DetailLink href={`/providers/${p.providerId}`}>{p.name}</DetailLink> },
        { header: 'Type', cell: (p: Provider) => p.type },
        { header: 'Default currency', cell: (p: Provider) => p.currency },
        { header: 'Country', cell: (p: Provider) => p.providerCountry ?? '—' },
        { header: 'Fee rules', numeric: true, cell: (p: Provider) => p.costData.length },
        { header: 'Simulated latency', cell: (p: Provider) => latencyText(latency.get(p.providerId)) },
        { header: 'Waiting for notifications', numeric: true, cell: (p: Provider) => waiting.get(p.providerId) ?? 0 },
      ]}
    />
  );
}
