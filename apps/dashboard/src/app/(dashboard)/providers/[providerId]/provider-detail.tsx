'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { DataTable } from '../../../../components/data-table';
import { Details } from '../../../../components/details';
import { Loaded } from '../../../../components/loaded';
import { Message } from '../../../../components/message';
import { formatDate, formatMoney } from '../../../../lib/format';
import { errorMessage, useTRPC } from '../../../../lib/trpc';
import type { Outputs } from '../../../../lib/types';
import { latencyText, useSimulatedLatency } from '../latency';
import { ProviderForm, useProviderTypes } from '../provider-form';
import { DetailLink } from '../../../../components/detail-link';

/**
 * A provider: its settings, the currencies its type takes, its fee schedule (used for least-cost
 * routing), its simulated latency, the captures, voids and refunds waiting for (or failed by) its
 * notifications; editing it, and checking its credentials with one harmless call.
 */
export function ProviderDetail({ providerId }: { providerId: string }) {
  const trpc = useTRPC();
  return <Loaded query={useQuery(trpc.provider.get.queryOptions({ providerId }))}>{(provider) => <ProviderView p={provider} />}</Loaded>;
}

function ProviderView({ p }: { p: Outputs['provider']['get'] }) {
  const latency = useSimulatedLatency();
  const type = useProviderTypes().find((t) => t.type === p.type);
  const [editing, setEditing] = useState(false);
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
          ['Currencies', type ? currenciesText(type.currencies) : null],
          ['Country', p.providerCountry],
          ['Simulated latency', latencyText(latency.get(p.providerId))],
          ['Credentials', Object.keys(p.authenticationParameters).join(', ') || null],
        ]}
      />
      <CredentialCheck providerId={p.providerId} />
      {editing ? (
        <ProviderForm provider={p} onSaved={() => setEditing(false)} />
      ) : (
        <div>
          <button type="button" className="secondary" onClick={() => setEditing(true)}>
            Edit the provider
          </button>
        </div>
      )}
      <PendingNotifications providerId={p.providerId} />
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

/** Every ISO code when the type takes them all would fill the page: their count, else the list. */
function currenciesText(currencies: string[]): string {
  return currencies.length > 40 ? `${currencies.length} currencies` : currencies.join(', ');
}

/** "Check credentials": one harmless authenticated call to the provider with the stored credentials. */
function CredentialCheck({ providerId }: { providerId: string }) {
  const trpc = useTRPC();
  const check = useMutation(trpc.dashboard.checkProviderCredentials.mutationOptions());
  return (
    <section className="card stack" aria-labelledby="provider-check">
      <h2 id="provider-check">Credentials</h2>
      <Message kind={check.data?.ok ? 'success' : 'error'}>
        {check.error ? errorMessage(check.error) : check.data ? check.data.message : null}
      </Message>
      <div>
        <button type="button" disabled={check.isPending} onClick={() => check.mutate({ providerId })}>
          {check.isPending ? 'Checking…' : 'Check credentials'}
        </button>
      </div>
    </section>
  );
}

/** Captures, voids and refunds the provider answered "received": how many wait, and those staff must look at. */
function PendingNotifications({ providerId }: { providerId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.dashboard.providerNotifications.queryOptions({ providerId }));
  const waiting = query.data?.pending.find((p) => p.providerId === providerId)?.count ?? 0;
  return (
    <section className="card stack" aria-labelledby="provider-notifications">
      <h2 id="provider-notifications">Pending notifications</h2>
      <p>
        {waiting === 0 ? 'Nothing waits for a notification from this provider.' : `${waiting} waiting for the provider's notification.`}{' '}
        {query.data &&
          `Listed below: failed by the provider, notified for another amount or currency, or waiting more than ${query.data.timeoutMinutes} minutes.`}
      </p>
      <DataTable
        caption="Modifications to look at"
        rows={query.data?.modifications ?? []}
        rowKey={(m) => m.modificationId}
        columns={[
          { header: 'Charge', cell: (m) => <DetailLink href={`/charges/${m.chargeId}`}>{m.reference ?? m.chargeId}</DetailLink> },
          { header: 'Operation', cell: (m) => m.kind },
          { header: 'Amount', numeric: true, cell: (m) => (m.kind === 'void' ? '—' : formatMoney(m.amount, m.currency)) },
          { header: 'State', cell: (m) => stateOf(m).map((line) => <div key={line}>{line}</div>) },
          { header: 'Since', cell: (m) => formatDate(m.dateAdded) },
        ]}
      />
    </section>
  );
}

type Modification = Outputs['dashboard']['providerNotifications']['modifications'][number];

/** What became of a modification, a line each: failed (also after it was confirmed) or waiting, and what a provider notified instead. */
function stateOf(m: Modification): string[] {
  const lines = [m.status === 'FAILED' ? `Failed: ${m.gatewayMessage ?? m.gatewayCode ?? 'no reason given'}` : 'Waiting'];
  if (m.reversedAfterConfirmation)
    lines.push(`${m.kind[0]!.toUpperCase()}${m.kind.slice(1)} reversed by the provider after it was confirmed`);
  if (m.notified) lines.push(`Provider notified ${figure(m.kind, m.notified)}, expected ${figure(m.kind, m)}`);
  return lines;
}

/** An amount as the dashboard shows money; a void moves none (its currency alone), and a provider's amount may not fit its currency. */
function figure(kind: Modification['kind'], { amount, currency }: { amount: number | null; currency: string }): string {
  if (kind === 'void') return currency;
  return amount === null ? `an amount in ${currency} finer than it counts` : formatMoney(amount, currency);
}
