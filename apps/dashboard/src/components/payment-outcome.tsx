'use client';

import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { readPayment, Refusal, type Payment, type PaymentTarget } from '../lib/gateway-calls';
import { Message } from './message';
import { PaymentConfirmation } from './payment-confirmation';

type Read = { state: 'reading' } | { state: 'read'; payment: Payment } | { state: 'unknown' } | { state: 'unreadable' };

/** Statuses in which the payment was made (a refund later does not undo that the payer paid). */
const PAID = new Set(['SUCCESS', 'AUTHORISE', 'PARTIAL_REFUND']);

/** An outcome that is not a paid one: its heading, what to say, and whether the payer can pay again from here. */
function OutcomeNotice({
  id,
  title,
  kind,
  children,
  action,
}: {
  id: string;
  title: string;
  kind: 'error' | 'warning';
  children: ReactNode;
  action?: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby={id} className="stack">
      <h2 id={id} ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <Message kind={kind}>{children}</Message>
      {action}
    </section>
  );
}

/**
 * The hosted page when the payer comes back from their bank (3-D Secure) with `chargeId` in its
 * query: the payment as the gateway has it now (the query's `status` is never believed), focused
 * and announced. A reload reads it again and pays nothing. "Try another card" shows `payAgain`
 * (the card form) with the query gone from the address, so a reload then shows the form.
 */
export function PaymentOutcome({
  target,
  chargeId,
  callToAction,
  payAgain,
}: {
  target: PaymentTarget;
  chargeId: string;
  callToAction: 'Pay' | 'Donate';
  payAgain: ReactNode;
}) {
  const [read, setRead] = useState<Read>({ state: 'reading' });
  const [another, setAnother] = useState(false);

  const check = useCallback(() => {
    setRead({ state: 'reading' });
    readPayment(target, chargeId).then(
      (payment) => setRead({ state: 'read', payment }),
      (error: unknown) => setRead({ state: error instanceof Refusal && error.status === 404 ? 'unknown' : 'unreadable' }),
    );
  }, [target, chargeId]);
  useEffect(check, [check]);

  const tryAnotherCard = () => {
    window.history.replaceState(null, '', window.location.pathname);
    setAnother(true);
  };
  const anotherCardButton = (
    <button type="button" onClick={tryAnotherCard}>
      Try another card
    </button>
  );
  const checkAgainButton = (
    <button type="button" className="secondary" onClick={check}>
      Check again
    </button>
  );

  if (another) return payAgain;
  switch (read.state) {
    case 'reading':
      return <p role="status">Checking your payment…</p>;
    case 'unknown':
      return (
        <OutcomeNotice id="payment-unknown" title="Payment not found" kind="warning" action={anotherCardButton}>
          We could not find this payment: you have not been charged for it.
        </OutcomeNotice>
      );
    case 'unreadable':
      return (
        <OutcomeNotice id="payment-unreadable" title="We could not check your payment" kind="warning" action={checkAgainButton}>
          Please check again in a moment. Do not pay again until you know: you may already have been charged.
        </OutcomeNotice>
      );
  }
  const { payment } = read;
  if (PAID.has(payment.status)) return <PaymentConfirmation payment={payment} callToAction={callToAction} />;
  if (payment.status === 'FAILED') {
    return (
      <OutcomeNotice id="payment-failed" title="Payment not completed" kind="error" action={anotherCardButton}>
        {payment.failureReason ?? 'The card was declined.'} You have not been charged.
      </OutcomeNotice>
    );
  }
  if (payment.status === 'PENDING') {
    return (
      <OutcomeNotice
        id="payment-waiting"
        title="Waiting for your bank"
        kind="warning"
        action={
          <div className="row">
            {payment.threeDsRedirectUrl && (
              <a className="button" href={payment.threeDsRedirectUrl}>
                Continue to your bank
              </a>
            )}
            {checkAgainButton}
          </div>
        }
      >
        Your bank has not confirmed this payment yet.
      </OutcomeNotice>
    );
  }
  return (
    <OutcomeNotice id="payment-cancelled" title="Payment cancelled" kind="warning">
      The merchant has cancelled or refunded this payment.
    </OutcomeNotice>
  );
}
