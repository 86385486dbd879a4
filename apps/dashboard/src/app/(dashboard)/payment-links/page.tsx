import type { Metadata } from 'next';
import Link from 'next/link';
import { PaymentLinkSearch } from './payment-link-search';

export const metadata: Metadata = { title: 'Payment links' };

export default function PaymentLinksPage() {
  return (
    <>
      <div className="page-header">
        <h1>Payment links</h1>
        <Link className="button" href="/payment-links/new">
          Create a payment link
        </Link>
      </div>
      <PaymentLinkSearch />
    </>
  );
}
