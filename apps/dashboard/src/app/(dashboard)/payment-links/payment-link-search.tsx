'use client';

import { useQuery } from '@tanstack/react-query';
import { CopyButton } from '../../../components/copy-button';
import { addedFilters, SearchView, useSearch, type FilterField } from '../../../components/search';
import { formatDate, formatMoney } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import type { Inputs, Outputs } from '../../../lib/types';
import { DetailLink } from '../../../components/detail-link';

type PaymentLink = Outputs['paymentLink']['get'];

/** Every filter of GET /payment_link. */
const FILTERS: FilterField[] = [...addedFilters(), { name: 'sortBy', label: 'Sort by', type: 'select', options: ['Date', 'Title'] }];

const columns = [
  { header: 'Title', cell: (l: PaymentLink) => <DetailLink href={`/payment-links/${l.paymentLinkId}`}>{l.title}</DetailLink> },
  { header: 'Amount', numeric: true, cell: (l: PaymentLink) => formatMoney(l.amount, l.currency) },
  {
    header: 'Payments',
    numeric: true,
    cell: (l: PaymentLink) => `${l.countPayments}${l.limitPayments === null ? '' : ` of ${l.limitPayments}`}`,
  },
  { header: 'Added', cell: (l: PaymentLink) => formatDate(l.dateAdded) },
  { header: 'Link', cell: (l: PaymentLink) => <CopyButton text={l.url} label="Copy link" /> },
];

export function PaymentLinkSearch() {
  const trpc = useTRPC();
  const search = useSearch(FILTERS);
  const query = useQuery(trpc.paymentLink.search.queryOptions(search.input as Inputs['paymentLink']['search']));
  return (
    <SearchView
      search={search}
      query={query}
      select={(data) => ({ rows: data.paymentLinks, count: data.count })}
      caption="Payment links"
      columns={columns}
      rowKey={(l) => l.paymentLinkId}
    />
  );
}
