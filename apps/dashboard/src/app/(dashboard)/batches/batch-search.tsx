'use client';

import { useQuery } from '@tanstack/react-query';
import { addedFilters, SearchView, useSearch, type FilterField } from '../../../components/search';
import { formatDate } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import type { Inputs } from '../../../lib/types';
import { BatchStatusBadge, percentDone, type BatchStatus } from './batch-status';
import { DetailLink } from '../../../components/detail-link';

/** Every filter of GET /batch. */
const FILTERS: FilterField[] = [{ name: 'description', label: 'Description', hint: 'The whole description, exactly' }, ...addedFilters()];

const columns = [
  { header: 'Added', cell: (b: BatchStatus) => <DetailLink href={`/batches/${b.batchId}`}>{formatDate(b.dateAdded)}</DetailLink> },
  { header: 'Description', cell: (b: BatchStatus) => b.description || '—' },
  { header: 'Status', cell: (b: BatchStatus) => <BatchStatusBadge batch={b} /> },
  { header: 'Transactions', numeric: true, cell: (b: BatchStatus) => b.count },
  { header: 'Processed', numeric: true, cell: (b: BatchStatus) => percentDone(b) },
  { header: 'Succeeded', numeric: true, cell: (b: BatchStatus) => b.success },
  { header: 'Failed', numeric: true, cell: (b: BatchStatus) => b.failure },
];

export function BatchSearch() {
  const trpc = useTRPC();
  const search = useSearch(FILTERS);
  const query = useQuery(trpc.batch.search.queryOptions(search.input as Inputs['batch']['search']));
  return (
    <SearchView
      search={search}
      query={query}
      select={(data) => ({ rows: data.batches, count: data.count })}
      caption="Batches"
      columns={columns}
      rowKey={(b) => b.batchId}
    />
  );
}
