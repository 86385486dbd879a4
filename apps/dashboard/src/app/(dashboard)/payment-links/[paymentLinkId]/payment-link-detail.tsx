'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { CopyButton } from '../../../../components/copy-button';
import { Details } from '../../../../components/details';
import { Loaded } from '../../../../components/loaded';
import { formatDate, formatMetadata, formatMoney } from '../../../../lib/format';
import { useTRPC } from '../../../../lib/trpc';
import type { Outputs } from '../../../../lib/types';
import { PaymentLinkPreview } from '../payment-link-preview';

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
              ['Payment types', link.allowedPaymentTypes.join(', ')],
              ['Confirmation', link.confirmationMessage],
              ['Redirect URL', link.redirectUrl],
              ['Invoice id', link.invoiceId],
              ['Metadata', formatMetadata(link.metadata)],
              ['Added', formatDate(link.dateAdded)],
            ]}
          />
        </div>
        <PaymentLinkPreview link={link} callToAction={link.callToAction} />
      </div>
    </>
  );
}
