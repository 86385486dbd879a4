'use client';

import { useEffect, useRef } from 'react';
import { formatMoney } from '../lib/format';
import type { Payment } from '../lib/gateway-calls';
import { Message } from './message';

/** How long the confirmation stays before the payer is taken to the merchant's page. */
const REDIRECT_DELAY_MS = 2500;

/**
 * A paid payment: the link's confirmation message, focused and announced, then the merchant's
 * redirectUrl (if any) after a moment, with a link to go at once.
 */
export function PaymentConfirmation({
  payment,
  callToAction,
}: {
  payment: Pick<Payment, 'amount' | 'currency' | 'confirmationMessage' | 'redirectUrl'>;
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
      <p>Paid {formatMoney(payment.amount, payment.currency)}</p>
      <Message kind="success">{payment.confirmationMessage ?? 'Your payment was successful.'}</Message>
      {redirectUrl && (
        <p>
          Taking you back to the merchant… <a href={redirectUrl}>Continue now</a>
        </p>
      )}
    </section>
  );
}
