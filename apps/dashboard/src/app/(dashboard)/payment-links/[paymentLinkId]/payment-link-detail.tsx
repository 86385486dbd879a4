'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { CopyButton } from '../../../../components/copy-button';
import { DataTable, type Column } from '../../../../components/data-table';
import { Details } from '../../../../components/details';
import { Loaded } from '../../../../components/loaded';
import { StatusBadge } from '../../../../components/status-badge';
import { failureSummary } from '../../../../lib/charge-failure';
import { formatDate, formatMetadata, formatMoney } from '../../../../lib/format';
import { useTRPC } from '../../../../lib/trpc';
import type { Charge, Outputs } from '../../../../lib/types';
import { PaymentLinkPreview } from '../payment-link-preview';
import { DetailLink } from '../../../../components/detail-link';

const PAYMENTS_SHOWN = 50;

/** A link's charges: when, who, how much, with what card, and their status (or, declined, why). */
function chargeColumns(outcome: Column<Charge>): Column<Charge>[] {
  return [
    { header: 'Added', cell: (c) => <DetailLink href={`/charges/${c.chargeId}`}>{formatDate(c.dateAdded)}</DetailLink> },
    { header: 'Email', cell: (c) => <span className="wrap">{c.paymentInformation.email ?? '—'}</span> },
    { header: 'Amount', numeric: true, cell: (c) => formatMoney(c.amount, c.currency) },
    outcome,
    { header: 'Card', cell: (c) => c.paymentInformation.displayType ?? c.paymentInformation.type },
  ];
}
const paymentColumns = chargeColumns({ header: 'Status', cell: (c) => <StatusBadge status={c.status} /> });
const declinedColumns = chargeColumns({ header: 'Reason', cell: (c) => <span className="wrap">{failureSummary(c)}</span> });

function ChargeList({ caption, columns, rows, empty }: { caption: string; columns: Column<Charge>[]; rows: Charge[]; empty: string }) {
  if (rows.length === 0) return <p>{empty}</p>;
  return <DataTable caption={caption} columns={columns} rows={rows} rowKey={(c) => c.chargeId} />;
}

/** The charges made on a link's page, newest first: its payments, then its declined attempts apart. */
function LinkPayments({ paymentLinkId }: { paymentLinkId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.charge.search.queryOptions({ paymentLinkId, limit: PAYMENTS_SHOWN }));
  const allCharges = `/charges?paymentLinkId=${paymentLinkId}`;
  return (
    <Loaded query={query}>
      {({ charges, count }) => (
        <>
          <section className="card stack" aria-labelledby="link-payments">
            <h2 id="link-payments">Payments</h2>
            <ChargeList
              caption="Payments of this link"
              columns={paymentColumns}
              rows={charges.filter((c) => c.status !== 'FAILED')}
              empty="No payments yet."
            />
          </section>
          <section className="card stack" aria-labelledby="link-declined">
            <h2 id="link-declined">Declined attempts</h2>
            <ChargeList
              caption="Declined attempts on this link"
              columns={declinedColumns}
              rows={charges.filter((c) => c.status === 'FAILED')}
              empty="No declined attempts."
            />
          </section>
          {count > charges.length && (
            <p>
              The latest {charges.length} of {count} charges are shown: <Link href={allCharges}>see them all in Charges</Link>.
            </p>
          )}
        </>
      )}
    </Loaded>
  );
}

/** A payment link: its address to share, how many payments it took, its fields and its page. */
export function PaymentLinkDetail({ paymentLinkId }: { paymentLinkId: string }) {
  const trpc = useTRPC();
  return (
    <Loaded query={useQuery(trpc.paymentLink.get.queryOptions({ paymentLinkId }))}>{(link) => <PaymentLinkView link={link} />}</Loaded>
  );
}

function PaymentLinkView({ link }: { link: Outputs['paymentLink']['get'] }) {
  return (
    <>
      <div className="page-header">
        <h1>{link.title}</h1>
        <Link href="/payment-links">All payment links</Link>
      </div>
      <div className="grid-2">
        <div>
          <section className="card stack" aria-labelledby="link-share">
            <h2 id="link-share">Share</h2>
            <a href={link.url} target="_blank" rel="noreferrer" data-testid="payment-link-url">
              {link.url}
            </a>
            <div className="row">
              <CopyButton text={link.url} label="Copy link" />
            </div>
            <p>
              <strong>{link.countPayments}</strong> payment{link.countPayments === 1 ? '' : 's'}
              {link.limitPayments === null ? ', no limit' : ` of at most ${link.limitPayments}`}.
            </p>
          </section>
          <Details
            title="Details"
            items={[
              ['Amount', formatMoney(link.amount, link.currency)],
              ['Button', link.callToAction],
              ['Asks for email', link.askEmail ? 'Yes' : 'No'],
              ['Payment types', link.allowedPaymentTypes.join(', ')],
              ['Confirmation', link.confirmationMessage],
              ['Redirect URL', link.redirectUrl],
              ['Invoice id', link.invoiceId],
              ['Metadata', formatMetadata(link.metadata)],
              ['Added', formatDate(link.dateAdded)],
            ]}
          />
        </div>
        <PaymentLinkPreview link={link} callToAction={link.callToAction} askEmail={link.askEmail} />
      </div>
      <LinkPayments paymentLinkId={link.paymentLinkId} />
    </>
  );
}
