import type { ReactNode } from 'react';
import { formatMoney } from '../lib/format';

export interface PaymentPageLink {
  /** The account's name: who the payer pays. */
  merchantName: string;
  title: string | null;
  description: string | null;
  image: string | null;
  amount: number;
  currency: string;
}

/**
 * What a payer sees of a payment link: the merchant's name and image, title, description and the
 * amount; the payment form goes below. The dashboard shows the same component as a live preview,
 * where an amount the gateway would refuse is shown as `amountProblem` instead.
 */
export function PaymentPage({
  link,
  heading: Heading = 'h1',
  amountProblem,
  children,
}: {
  link: PaymentPageLink;
  heading?: 'h1' | 'h2';
  amountProblem?: string;
  children: ReactNode;
}) {
  return (
    <article className="pay-card">
      {/* The image is the merchant's decoration (a logo): the title names the page. */}
      {link.image && <img src={link.image} alt="" />}
      <p className="pay-merchant">{link.merchantName}</p>
      <Heading>{link.title || 'Payment'}</Heading>
      {link.description && <p className="pay-description">{link.description}</p>}
      {amountProblem ? (
        <p className="pay-amount-problem">{amountProblem}</p>
      ) : (
        <p className="pay-amount">{formatMoney(link.amount, link.currency)}</p>
      )}
      {children}
    </article>
  );
}
