'use client';

import { CHARGE_STATUSES } from '@gateway/core/charge/status';
import { useQuery } from '@tanstack/react-query';
import { addedFilters, SearchView, useSearch, type FilterField } from '../../../components/search';
import { chargeStatusText, StatusBadge } from '../../../components/status-badge';
import { failureSummary } from '../../../lib/charge-failure';
import { formatDate, formatMoney } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import type { Charge, Inputs } from '../../../lib/types';
import { DetailLink } from '../../../components/detail-link';

const SCHEMES = ['VISA', 'MASTERCARD', 'AMEX', 'DISCOVER', 'JCB', 'DINERS', 'UNIONPAY'];

/**
 * One field that finds any charge (our Query), then every filter of GET /charge under "More
 * filters". The card filter takes the first six digits only: no card number in a URL.
 */
function chargeFilters(providers: Array<{ providerId: string; name: string }>): FilterField[] {
  return [
    {
      name: 'query',
      label: 'Search charges',
      type: 'search',
      hint: 'Email, card’s last four digits, part of the reference, charge id or provider’s charge id',
      maxLength: 200,
    },
    { name: 'reference', label: 'Reference (exact)', more: true },
    {
      name: 'status',
      label: 'Status',
      type: 'select',
      options: CHARGE_STATUSES.filter((s) => s !== 'PROCESSING').map((value) => ({ value, label: chargeStatusText(value) })),
      more: true,
    },
    {
      name: 'awaitingAuthentication',
      label: '3-D Secure',
      type: 'select',
      options: [
        { value: 'true', label: 'Waiting for the payer' },
        { value: 'false', label: 'Not waiting' },
      ],
      more: true,
    },
    {
      name: 'providerId',
      label: 'Provider',
      type: 'select',
      options: providers.map((p) => ({ value: p.providerId, label: p.name })),
      more: true,
    },
    { name: 'amountGreaterThan', label: 'Amount above', inputMode: 'decimal', more: true },
    { name: 'amountLessThan', label: 'Amount below', inputMode: 'decimal', more: true },
    ...addedFilters(true),
    { name: 'sortBy', label: 'Sort by', type: 'select', options: ['Date', 'Amount', 'Status', 'Reference'], more: true },
    { name: 'currency', label: 'Currency', maxLength: 3, more: true },
    { name: 'cardNumber', label: 'Card BIN', hint: 'First 6 digits of the card', inputMode: 'numeric', maxLength: 6, more: true },
    { name: 'cardholder', label: 'Cardholder', more: true },
    { name: 'cardType', label: 'Card scheme', type: 'select', options: SCHEMES, more: true },
    { name: 'paymentType', label: 'Payment type', type: 'select', options: ['CARD', 'BANK_ACCOUNT', 'PAYTO', 'APPLE_PAY'], more: true },
    { name: 'customerId', label: 'Customer id', more: true },
    { name: 'paymentMethodId', label: 'Payment method id', more: true },
    { name: 'batchId', label: 'Batch id', more: true },
    { name: 'subscriptionId', label: 'Subscription id', more: true },
    { name: 'paymentLinkId', label: 'Payment link id', more: true },
  ];
}

const columns = [
  { header: 'Added', cell: (c: Charge) => <DetailLink href={`/charges/${c.chargeId}`}>{formatDate(c.dateAdded)}</DetailLink> },
  { header: 'Email', cell: (c: Charge) => <span className="wrap">{c.paymentInformation.email ?? '—'}</span> },
  { header: 'Reference', cell: (c: Charge) => <span className="wrap">{c.reference ?? '—'}</span> },
  { header: 'Amount', numeric: true, cell: (c: Charge) => formatMoney(c.amount, c.currency) },
  {
    header: 'Status',
    cell: (c: Charge) => (
      <>
        <StatusBadge status={c.status} />
        {failureSummary(c) && <span className="reason">{failureSummary(c)}</span>}
      </>
    ),
  },
  {
    header: 'Card',
    cell: (c: Charge) =>
      c.paymentInformation.card
        ? `${c.paymentInformation.card.type ?? ''} ${c.paymentInformation.card.cardNumber}`
        : c.paymentInformation.type,
  },
];

export function ChargeSearch() {
  const trpc = useTRPC();
  const providers = useQuery(trpc.provider.list.queryOptions({ limit: 100 }));
  const search = useSearch(chargeFilters(providers.data?.providers ?? []));
  const query = useQuery(trpc.charge.search.queryOptions(search.input as Inputs['charge']['search']));
  return (
    <SearchView
      search={search}
      query={query}
      select={(data) => ({ rows: data.charges, count: data.count })}
      caption="Charges"
      columns={columns}
      rowKey={(c) => c.chargeId}
    />
  );
}
