'use client';

import { useQuery } from '@tanstack/react-query';
import { CopyButton, CopyLabel } from '../../../components/copy-button';
import { DataTable, type Column } from '../../../components/data-table';
import { DetailLink } from '../../../components/detail-link';
import { Loaded } from '../../../components/loaded';
import { formatDate, formatMoney } from '../../../lib/format';
import { ageText, HELD_LIST_LIMIT, lookupOf, OPERATION_WORDS, resolutionText, settledByText, type HeldCall } from '../../../lib/held-calls';
import { useTRPC } from '../../../lib/trpc';

const chargeColumn: Column<HeldCall> = {
  header: 'Charge',
  cell: (h) => <DetailLink href={`/charges/${h.chargeId}`}>{h.reference ?? h.chargeId}</DetailLink>,
};
const common: Array<Column<HeldCall>> = [
  { header: 'Operation', cell: (h) => OPERATION_WORDS[h.operation] },
  { header: 'Amount', numeric: true, cell: (h) => formatMoney(h.amount, h.currency) },
  { header: 'Provider', cell: (h) => h.providerName || h.providerId },
];

/** What to look up at the provider, to copy. */
function LookUp({ h }: { h: HeldCall }) {
  const { where, what } = lookupOf(h);
  return (
    <span className="wrap">
      {what} <code>{h.providerReference}</code> in {where}{' '}
      <CopyButton text={h.providerReference} label={<CopyLabel what={what} reference={h.providerReference} />} />
    </span>
  );
}

const openColumns: Array<Column<HeldCall>> = [
  chargeColumn,
  ...common,
  { header: 'Look up', cell: (h) => <LookUp h={h} /> },
  {
    header: 'Held since',
    cell: (h) => (
      <>
        <time dateTime={h.dateAdded}>{formatDate(h.dateAdded)}</time>
        <span className="reason">{ageText(h.dateAdded)}</span>
      </>
    ),
  },
];

const settledColumns: Array<Column<HeldCall>> = [
  chargeColumn,
  ...common,
  { header: 'Looked up', cell: (h) => `${lookupOf(h).what} ${h.providerReference}` },
  { header: 'Found', cell: (h) => resolutionText(h) },
  { header: 'Settled by', cell: (h) => <span className="wrap">{settledByText(h)}</span> },
  { header: 'Settled', cell: (h) => formatDate(h.resolvedAt) },
];

/**
 * The calls whose outcome is unknown at the provider, held for staff (dashboard.unknownOutcomes):
 * those waiting (newest first), each with what to look up at the provider and its charge, on whose
 * page staff settle it; and the last settled, with what staff found, who and when.
 */
export function HeldCallList() {
  const trpc = useTRPC();
  const open = useQuery(trpc.dashboard.unknownOutcomes.queryOptions({}));
  const settled = useQuery(trpc.dashboard.unknownOutcomes.queryOptions({ settled: true }));
  return (
    <>
      <h1>Outcome unknown at the provider</h1>
      <p>
        A provider that cannot be asked what became of a call (NAB Transact has no idempotency keys) did not answer it: nobody knows whether
        it made the payment, capture, void or refund. The gateway neither guesses nor sends it again; it holds the call here. Look each one
        up at the provider, then settle it on its charge’s page as you found it.
      </p>
      <section className="card" aria-labelledby="held-open">
        <h2 id="held-open">Waiting for staff</h2>
        <Loaded query={open}>
          {(rows) =>
            rows.length === 0 ? (
              <p role="status">No call waits: every provider answered.</p>
            ) : (
              <>
                {rows.length >= HELD_LIST_LIMIT && (
                  <p className="hint">The newest {HELD_LIST_LIMIT} are listed; settle them to see the others.</p>
                )}
                <DataTable caption="Calls with outcome unknown, waiting for staff" rows={rows} rowKey={(h) => h.id} columns={openColumns} />
              </>
            )
          }
        </Loaded>
      </section>
      <section className="card" aria-labelledby="held-settled">
        <h2 id="held-settled">Recently settled</h2>
        <Loaded query={settled}>
          {(rows) =>
            rows.length === 0 ? (
              <p>None settled yet.</p>
            ) : (
              <DataTable caption="Calls with outcome unknown, settled by staff" rows={rows} rowKey={(h) => h.id} columns={settledColumns} />
            )
          }
        </Loaded>
      </section>
    </>
  );
}
