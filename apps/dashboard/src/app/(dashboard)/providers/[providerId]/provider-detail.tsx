'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { DataTable } from '../../../../components/data-table';
import { Details } from '../../../../components/details';
import { Loaded } from '../../../../components/loaded';
import { formatMoney } from '../../../../lib/format';
import { useTRPC } from '../../../../lib/trpc';
import type { Outputs } from '../../../../lib/types';
import { latencyText, useSimulatedLatency } from '../latency';

/** A provider: its settings, its fee schedule (used for least-cost routing), its simulated latency. */
export function ProviderDetail({ providerId }: { providerId: string }) {
  const trpc = useTRPC();
  return <Loaded query={useQuery(trpc.provider.get.queryOptions({ providerId }))}>{(provider) => <ProviderView p={provider} />}</Loaded>;
}

function ProviderView({ p }: { p: Outputs['provider']['get'] }) {
  const latency = useSimulatedLatency();
  return (
    <>
      <div className="page-header">
        <h1>{p.name}</h1>
        <Link href={`/charges?providerId=${p.providerId}`}>Charges through this provider</Link>
      </div>
      <Details
        title="Details"
        items={[
          ['Provider id', p.providerId],
          ['Type', p.type],
          ['Environment', p.environment],
          ['Default currency', p.currency],
          ['Country', p.providerCountry],
          ['Simulated latency', latencyText(latency.get(p.providerId))],
          ['Credentials', Object.keys(p.authenticationParameters).join(', ') || null],
        ]}
      />
      <section className="card" aria-labelledby="provider-fees">
        <h2 id="provider-fees">Fees</h2>
        <DataTable
          caption="Fee schedule"
          rows={p.costData}
          rowKey={(fee) => `${fee.currency} ${fee.cardScheme} ${fee.isInternationalCard}`}
          columns={[
            { header: 'Currency', cell: (fee) => fee.currency },
            { header: 'Card scheme', cell: (fee) => fee.cardScheme ?? 'Any' },
            {
              header: 'Cards',
              cell: (fee) => (fee.isInternationalCard === null ? 'Any' : fee.isInternationalCard ? 'International' : 'Domestic'),
            },
            { header: 'Fixed fee', numeric: true, cell: (fee) => formatMoney(fee.transactionCost, fee.currency) },
            { header: 'Percentage', numeric: true, cell: (fee) => `${fee.transactionPercentage} %` },
          ]}
        />
      </section>
    </>
  );
}
