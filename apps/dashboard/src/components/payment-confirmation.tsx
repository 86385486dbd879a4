'use client';

import { useEffect, useRef } from 'react';
import { formatDate, formatMoney } from '../lib/format';
import type { Payment } from '../lib/gateway-calls';
import { Message } from './message';

/** How long the confirmation stays before the payer is taken to the merchant's page. */
const REDIRECT_DELAY_MS = 2500;

/**
 * A paid payment: the link's confirmation message, focused and announced, and the payer's receipt
 * (amount, reference, date, the card masked as the gateway answers it, the payment's id to quote);
 * then the merchant's redirectUrl (if any) after a moment, with a link to go at once.
 */
export function PaymentConfirmation({
  payment,
  callToAction,
}: {
  payment: Pick<
    Payment,
    'chargeId' | 'amount' | 'currency' | 'confirmationMessage' | 'redirectUrl' | 'dateAdded' | 'reference' | 'cardNumber' | 'cardType'
  >;
  callToAction: 'Pay' | 'Donate';
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const { redirectUrl } = payment;

  useEffect(() => {
    heading.current?.focus();
    if (!redirectUrl) return;
    const timer = setTimeout(() => window.location.assign(redirectUrl), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [redirectUrl]);

  return (
    <section aria-labelledby="payment-done" className="stack">
      <h2 id="payment-done" ref={heading} tabIndex={-1}>
        {callToAction === 'Donate' ? 'Thank you for your donation' : 'Payment received'}
      </h2>
      <Message kind="success">{payment.confirmationMessage ?? 'Your payment was successful.'}</Message>
      <section aria-labelledby="payment-receipt" className="receipt">
        <h3 id="payment-receipt">Receipt</h3>
        <p className="receipt-amount">Paid {formatMoney(payment.amount, payment.currency)}</p>
        <dl className="details">
          {payment.reference && (
            <>
              <dt>Reference</dt>
              <dd>{payment.reference}</dd>
            </>
          )}
          <dt>Date</dt>
          <dd>{formatDate(payment.dateAdded)}</dd>
          {payment.cardNumber && (
            <>
              <dt>Card</dt>
              <dd>{[payment.cardType, payment.cardNumber].filter(Boolean).join(' ')}</dd>
            </>
          )}
          <dt>Payment id</dt>
          <dd>
            <code>{payment.chargeId}</code>
          </dd>
        </dl>
        <p className="hint">Quote the payment id if you contact the merchant about this payment.</p>
      </section>
      {redirectUrl && (
        <p>
          Taking you back to the merchant… <a href={redirectUrl}>Continue now</a>
        </p>
      )}
    </section>
  );
}
