'use client';

import { useQuery } from '@tanstack/react-query';
import { addedFilters, SearchView, useSearch, type FilterField } from '../../../components/search';
import { formatDate } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import type { Inputs, Outputs } from '../../../lib/types';
import { DetailLink } from '../../../components/detail-link';

type Customer = Outputs['customer']['get'];

/** Every filter of GET /customer. */
const FILTERS: FilterField[] = [
  { name: 'search', label: 'Name or email contains' },
  { name: 'email', label: 'Email' },
  { name: 'reference', label: 'Reference' },
  { name: 'sortBy', label: 'Sort by', type: 'select', options: ['Date', 'Reference', 'Email', 'Name'] },
  { name: 'customerId', label: 'Customer id', more: true },
  { name: 'paymentMethodId', label: 'Payment method id', more: true },
  ...addedFilters(true),
  { name: 'includeRemoved', label: 'Removed customers', type: 'select', options: [{ value: 'true', label: 'Include' }], more: true },
];

const columns = [
  {
    header: 'Name',
    cell: (c: Customer) => (
      <DetailLink href={`/customers/${c.customerId}`}>{[c.firstName, c.lastName].filter(Boolean).join(' ') || c.customerId}</DetailLink>
    ),
  },
  { header: 'Email', cell: (c: Customer) => c.email ?? '—' },
  { header: 'Reference', cell: (c: Customer) => c.reference ?? '—' },
  { header: 'Default payment', cell: (c: Customer) => c.defaultPaymentMethod?.card?.cardNumber ?? c.defaultPaymentMethod?.type ?? '—' },
  { header: 'Added', cell: (c: Customer) => formatDate(c.dateAdded) },
  { header: 'Removed', cell: (c: Customer) => (c.dateRemoved ? formatDate(c.dateRemoved) : '') },
];

export function CustomerSearch() {
  const trpc = useTRPC();
  const search = useSearch(FILTERS);
  const input = { ...(search.input as Inputs['customer']['search']), includeRemoved: search.filters.includeRemoved === 'true' };
  const query = useQuery(trpc.customer.search.queryOptions(input));
  return (
    <SearchView
      search={search}
      query={query}
      select={(data) => ({ rows: data.customers, count: data.count })}
      caption="Customers"
      columns={columns}
      rowKey={(c) => c.customerId}
    />
  );
}
