import type { ReactNode } from 'react';
import { formatMoney } from '../lib/format';

export interface PaymentPageLink {
  title: string | null;
  description: string | null;
  image: string | null;
  amount: number;
  currency: string;
}

/**
 * What a payer sees of a payment link: the merchant's image, title, description and the amount;
 * the payment form goes below. The dashboard shows the same component as a live preview.
 */
export function PaymentPage({
  link,
  heading: Heading = 'h1',
  children,
}: {
  link: PaymentPageLink;
  heading?: 'h1' | 'h2';
  children: ReactNode;
}) {
  return (
    <article className="pay-card">
      {/* The image is the merchant's decoration (a logo): the title names the page. */}
      {link.image && <img src={link.image} alt="" />}
      <Heading>{link.title || 'Payment'}</Heading>
      {link.description && <p className="pay-description">{link.description}</p>}
      <p className="pay-amount">{formatMoney(link.amount, link.currency)}</p>
      {children}
    </article>
  );
}
