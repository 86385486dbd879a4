'use client';

import { detectScheme, isValidCardNumber, normaliseCardNumber, type CardScheme } from '@gateway/core/card/card-number';
import { isExpired, parseExpiry } from '@gateway/core/card/expiry';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { callGateway, payerBrowser, Refusal, type Payment, type PaymentTarget } from '../lib/gateway-calls';
import { useHydrated } from '../lib/hydrated';
import { Field } from './field';
import { Message } from './message';
import { PaymentConfirmation } from './payment-confirmation';

const BRANDS: Record<CardScheme, string> = {
  VISA: 'Visa',
  MASTERCARD: 'Mastercard',
  AMEX: 'American Express',
  DISCOVER: 'Discover',
  JCB: 'JCB',
  DINERS: 'Diners Club',
  UNIONPAY: 'UnionPay',
  UNKNOWN: '',
};

/** What the payer types: their email when the link asks for it, and their card. */
type CardFields = { email: string; cardNumber: string; expiryDate: string; ccv: string; cardholder: string };
const EMPTY: CardFields = { email: '', cardNumber: '', expiryDate: '', ccv: '', cardholder: '' };
const LABELS: Record<keyof CardFields, string> = {
  email: 'Email',
  cardNumber: 'Card number',
  expiryDate: 'Expiry date (MM/YY)',
  ccv: 'Security code (CCV)',
  cardholder: 'Name on card',
};

/** Digits in groups as printed on the card: 4-6-5 for American Express, fours otherwise. */
function grouped(digits: string): string {
  const groups = detectScheme(digits) === 'AMEX' ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts: string[] = [];
  let rest = digits;
  for (const size of groups) {
    if (!rest) break;
    parts.push(rest.slice(0, size));
    rest = rest.slice(size);
  }
  return parts.join(' ');
}

function problems(fields: CardFields, askEmail: boolean): Partial<Record<keyof CardFields, string>> {
  const found: Partial<Record<keyof CardFields, string>> = {};
  if (askEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(fields.email.trim())) found.email = 'Enter your email, like name@example.com.';
  const digits = normaliseCardNumber(fields.cardNumber);
  if (!digits) found.cardNumber = 'Enter the card number: 12 to 19 digits.';
  else if (!isValidCardNumber(digits)) found.cardNumber = 'This card number is not valid. Check it and try again.';
  const expiry = parseExpiry(fields.expiryDate);
  if (!expiry) found.expiryDate = 'Enter the expiry date as MM/YY.';
  else if (isExpired(expiry, new Date())) found.expiryDate = 'This card has expired.';
  if (!/^\d{3,4}$/.test(fields.ccv)) found.ccv = 'Enter the 3 or 4 digit code on the back of the card.';
  if (!fields.cardholder.trim()) found.cardholder = 'Enter the name as it is on the card.';
  return found;
}

/** An Idempotency-Key (crypto.randomUUID needs https, and the page may be served over http). */
function newKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Code of UnableToCharge: the link has taken all the payments it allows. */
const SOLD_OUT = 46;

/**
 * Where the page is while the payer's browser goes to their bank (3-D Secure): said, focused, with a
 * link for a browser that did not go (or came back here with the back button).
 */
function ToTheBank({ url }: { url: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="payment-authentication" className="stack">
      <h2 id="payment-authentication" ref={heading} tabIndex={-1}>
        Confirm the payment with your bank
      </h2>
      <Message kind="warning">Taking you to your bank to confirm this payment…</Message>
      <p>
        <a href={url}>Continue to your bank</a>
      </p>
    </section>
  );
}

/**
 * The card form of the hosted payment page. Card details go to the gateway's tokenisation
 * endpoint only (with the account's public key); the payment is then made with the token. Each
 * attempt has its own Idempotency-Key, kept when an answer is lost so that trying again cannot
 * charge twice, and a click while one is under way does nothing. A card whose bank wants the payer
 * to authenticate (3-D Secure) answers PENDING: the browser goes to the bank in this window, and
 * comes back to this page with the charge's id (PaymentOutcome). Without a `target` the form only
 * shows (the dashboard's preview). `focused`: the card number takes the focus when it shows
 * (after "Try another card"). `askEmail`: the link asks for the payer's email, sent with the payment.
 */
export function CardForm({
  callToAction,
  target,
  focused = false,
  askEmail = false,
}: {
  callToAction: 'Pay' | 'Donate';
  target?: PaymentTarget;
  focused?: boolean;
  askEmail?: boolean;
}) {
  const [fields, setFields] = useState<CardFields>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof CardFields, string>>>({});
  const [formError, setFormError] = useState<string>();
  const [paying, setPaying] = useState(false);
  const [paid, setPaid] = useState<Payment>();
  const [authenticating, setAuthenticating] = useState<string>();
  const [soldOut, setSoldOut] = useState(false);
  const busy = useRef(false);
  const attempt = useRef<{ key: string; browserInfo: ReturnType<typeof payerBrowser>; token?: string }>(undefined);
  const inputs = useRef<Partial<Record<keyof CardFields, HTMLInputElement | null>>>({});
  const hydrated = useHydrated();

  useEffect(() => {
    if (focused) inputs.current.cardNumber?.focus();
  }, [focused]);

  const change = (name: keyof CardFields, value: string) => {
    attempt.current = undefined; // other details: a new attempt
    setFields((current) => ({ ...current, [name]: value }));
    if (errors[name]) setErrors((current) => ({ ...current, [name]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!target || busy.current) return;
    const found = problems(fields, askEmail);
    const invalid = (Object.keys(LABELS) as Array<keyof CardFields>).filter((name) => found[name]);
    setErrors(found);
    if (invalid.length > 0) {
      setFormError(`Please correct: ${invalid.map((name) => LABELS[name]).join(', ')}.`);
      inputs.current[invalid[0] as keyof CardFields]?.focus();
      return;
    }
    busy.current = true;
    setPaying(true);
    setFormError(undefined);
    const { paymentLinkId } = target;
    try {
      attempt.current ??= { key: newKey(), browserInfo: payerBrowser() };
      const current = attempt.current;
      current.token ??= (
        await callGateway<{ tokenId: string }>(target, '/token/card', {
          body: { paymentInformation: { ...fields, cardNumber: normaliseCardNumber(fields.cardNumber) } },
        })
      ).tokenId;
      const result = await callGateway<Payment>(target, `/payment_link/${paymentLinkId}/pay`, {
        // A repeat of the attempt sends what the first sent: the same request under its key.
        body: { token: current.token, browserInfo: current.browserInfo, ...(askEmail && { email: fields.email.trim() }) },
        headers: { 'idempotency-key': current.key },
      });
      setFields(EMPTY);
      if (result.status === 'PENDING' && result.threeDsRedirectUrl) {
        // To the bank, in this window; the page stays busy: nothing more is sent from it.
        setAuthenticating(result.threeDsRedirectUrl);
        window.location.assign(result.threeDsRedirectUrl);
        return;
      }
      setPaid(result);
    } catch (error) {
      if (error instanceof Refusal && error.final) {
        attempt.current = undefined;
        setFields((current) => ({ ...current, ccv: '' }));
        if (error.code === SOLD_OUT) setSoldOut(true);
        setFormError(`${error.message.replace(/\.?$/, '.')} You have not been charged. Check your details or try another card.`);
      } else {
        // No answer, or not a final one: the same attempt (key and token) is sent again on the next try.
        setFormError('We could not confirm your payment yet. Please try again in a moment: you will not be charged twice.');
      }
    }
    busy.current = false;
    setPaying(false);
  }

  if (paid) return <PaymentConfirmation payment={paid} callToAction={callToAction} />;
  if (authenticating) return <ToTheBank url={authenticating} />;
  if (soldOut) return <Message kind="warning">This payment link is no longer accepting payments.</Message>;

  const digits = fields.cardNumber.replace(/\D/g, '');
  const brand = BRANDS[detectScheme(digits)];
  // No `name` on card inputs: the browser could never send them anywhere by itself.
  const control = (name: keyof CardFields) => ({
    value: fields[name],
    ref: (element: HTMLInputElement | null) => {
      inputs.current[name] = element;
    },
    onBlur: () => {
      const problem = problems(fields, askEmail)[name];
      if (fields[name] && problem) setErrors((current) => ({ ...current, [name]: problem }));
    },
    required: true,
  });
  return (
    <form method="post" className="stack" onSubmit={submit} noValidate aria-label="Card payment">
      {askEmail && (
        <Field label={LABELS.email} error={errors.email} hint="The merchant keeps it with your payment">
          {(props) => (
            <input
              {...props}
              {...control('email')}
              onChange={(event) => change('email', event.target.value)}
              type="email"
              autoComplete="email"
              maxLength={254}
            />
          )}
        </Field>
      )}
      <div className="card-number">
        <Field label={LABELS.cardNumber} error={errors.cardNumber} hint={brand ? `${brand} card` : undefined}>
          {(props) => (
            <input
              {...props}
              {...control('cardNumber')}
              value={grouped(digits)}
              onChange={(event) => change('cardNumber', event.target.value.replace(/\D/g, '').slice(0, 19))}
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="1234 1234 1234 1234"
            />
          )}
        </Field>
      </div>
      <div className="form-grid">
        <Field label={LABELS.expiryDate} error={errors.expiryDate}>
          {(props) => (
            <input
              {...props}
              {...control('expiryDate')}
              onChange={(event) => change('expiryDate', event.target.value.slice(0, 7))}
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder="MM/YY"
            />
          )}
        </Field>
        <Field label={LABELS.ccv} error={errors.ccv}>
          {(props) => (
            <input
              {...props}
              {...control('ccv')}
              onChange={(event) => change('ccv', event.target.value.replace(/\D/g, '').slice(0, 4))}
              inputMode="numeric"
              autoComplete="cc-csc"
              placeholder="123"
            />
          )}
        </Field>
      </div>
      <Field label={LABELS.cardholder} error={errors.cardholder}>
        {(props) => (
          <input
            {...props}
            {...control('cardholder')}
            onChange={(event) => change('cardholder', event.target.value)}
            autoComplete="cc-name"
          />
        )}
      </Field>
      <Message kind="error">{formError}</Message>
      <button type="submit" disabled={!hydrated || paying}>
        {paying ? 'Processing…' : callToAction}
      </button>
    </form>
  );
}
