'use client';

import { describeAmountProblem, parseAmount, toWireAmount } from '@gateway/core/money/amount';
import { findCurrency } from '@gateway/core/money/currencies';
import { checkImageDataUri, HOSTED_PAYMENT_TYPES, IMAGE_PROBLEMS, IMAGE_TYPES } from '@gateway/core/payment-link';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useRef, useState, type ChangeEvent } from 'react';
import { Field } from '../../../../components/field';
import { ServerError } from '../../../../components/server-error';
import { fieldErrors, useTRPC } from '../../../../lib/trpc';
import { PaymentLinkPreview } from '../payment-link-preview';

const DRAFT = {
  title: '',
  amount: '',
  currency: '',
  description: '',
  image: '',
  callToAction: 'Pay' as 'Pay' | 'Donate',
  askEmail: false,
  limitPayments: '',
  confirmationMessage: '',
  redirectUrl: '',
  invoiceId: '',
  metadata: '',
};
type Draft = typeof DRAFT;

/** `key=value` lines into metadata; undefined when a line is not of that form. */
function parseMetadata(text: string): Record<string, string> | undefined {
  const lines = text.split('\n').filter((line) => line.trim());
  const pairs = lines.map((line) => /^\s*([^=]+?)\s*=\s*(.*?)\s*$/.exec(line));
  if (pairs.some((pair) => !pair)) return undefined;
  return Object.fromEntries(pairs.map((pair) => [pair?.[1] ?? '', pair?.[2] ?? '']));
}

/**
 * The link's price as the API will read it (the same rules: the currency's decimals, above zero),
 * or why it will be refused; nothing while the amount is still empty.
 */
function readPrice(
  amount: string,
  currencyCode: string,
): { amount: number; currency: string } | { field: 'amount' | 'currency'; problem: string } | undefined {
  const currency = findCurrency(currencyCode);
  if (!currency) return { field: 'currency', problem: `Unknown currency ${currencyCode}: use an ISO 4217 code such as AUD` };
  if (!amount.trim()) return undefined;
  const parsed = parseAmount(amount, currency);
  if (!parsed.ok) return { field: 'amount', problem: describeAmountProblem(parsed.problem, currency) };
  return { amount: toWireAmount(parsed.minor, currency), currency: currency.code };
}

function readImage(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** Every field of a payment link, with the hosted page previewed live beside it. */
export function PaymentLinkForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const [draft, setDraft] = useState<Draft>(DRAFT);
  const accountCurrency = useQuery(trpc.staff.me.queryOptions()).data?.defaultCurrency ?? '';
  const [localErrors, setLocalErrors] = useState<Partial<Record<keyof Draft, string>>>({});
  const create = useMutation(
    trpc.paymentLink.create.mutationOptions({ onSuccess: (link) => router.push(`/payment-links/${link.paymentLinkId}`) }),
  );
  const form = useRef<HTMLFormElement>(null);
  // Until the account's currency is known, an empty currency field has nothing to check.
  const currencyCode = draft.currency.trim() || accountCurrency;
  const price = currencyCode ? readPrice(draft.amount, currencyCode) : undefined;
  const priceProblem = price && 'problem' in price ? price : undefined;
  const errors = { ...fieldErrors(create.error), ...localErrors, ...(priceProblem && { [priceProblem.field]: priceProblem.problem }) };
  const set = (name: keyof Draft) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
    setDraft((current) => ({ ...current, [name]: event.target.value }));
  const text = (name: keyof Draft) => ({ name, value: draft[name] as string, onChange: set(name) });

  async function chooseImage(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    const uri = await readImage(file);
    const problem = checkImageDataUri(uri);
    setLocalErrors((current) => ({ ...current, image: problem && IMAGE_PROBLEMS[problem] }));
    setDraft((current) => ({ ...current, image: problem ? '' : uri }));
  }

  function submit() {
    if (priceProblem) {
      (form.current?.elements.namedItem(priceProblem.field) as HTMLInputElement | null)?.focus();
      return;
    }
    const metadata = parseMetadata(draft.metadata);
    setLocalErrors((current) => ({ ...current, metadata: metadata ? undefined : 'Write one key=value pair per line.' }));
    if (!metadata) return;
    const optional = (value: string) => value.trim() || undefined;
    create.mutate({
      title: draft.title,
      amount: draft.amount,
      currency: optional(draft.currency),
      description: optional(draft.description),
      image: optional(draft.image),
      callToAction: draft.callToAction,
      askEmail: draft.askEmail,
      allowedPaymentTypes: [...HOSTED_PAYMENT_TYPES],
      limitPayments: draft.limitPayments ? Number(draft.limitPayments) : undefined,
      confirmationMessage: optional(draft.confirmationMessage),
      redirectUrl: optional(draft.redirectUrl),
      invoiceId: optional(draft.invoiceId),
      metadata: Object.keys(metadata).length > 0 ? metadata : undefined,
    });
  }

  return (
    <div className="grid-2">
      <form
        ref={form}
        className="card stack"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Field label="Title" error={errors.title}>
          {(props) => <input {...props} {...text('title')} required maxLength={200} />}
        </Field>
        <div className="form-grid">
          <Field label="Amount" error={errors.amount}>
            {(props) => <input {...props} {...text('amount')} required inputMode="decimal" />}
          </Field>
          <Field label="Currency" error={errors.currency} hint={`ISO 4217 code; empty: the account's (${accountCurrency})`}>
            {(props) => <input {...props} {...text('currency')} maxLength={3} placeholder={accountCurrency} />}
          </Field>
        </div>
        <Field label="Description" error={errors.description}>
          {(props) => <textarea {...props} {...text('description')} rows={3} maxLength={2000} />}
        </Field>
        <Field label="Image" error={errors.image} hint={`PNG, JPEG, GIF or WebP, at most 512 KB`}>
          {(props) => <input {...props} type="file" accept={IMAGE_TYPES.join(',')} onChange={chooseImage} />}
        </Field>
        {draft.image && (
          <button type="button" className="secondary" onClick={() => setDraft((current) => ({ ...current, image: '' }))}>
            Remove the image
          </button>
        )}
        <fieldset className="field checkboxes">
          <legend>Button text</legend>
          {(['Pay', 'Donate'] as const).map((value) => (
            <label key={value}>
              <input
                type="radio"
                name="callToAction"
                value={value}
                checked={draft.callToAction === value}
                onChange={() => setDraft((c) => ({ ...c, callToAction: value }))}
              />
              {value}
            </label>
          ))}
        </fieldset>
        <div className="field checkboxes">
          <label>
            <input
              type="checkbox"
              checked={draft.askEmail}
              onChange={(event) => setDraft((c) => ({ ...c, askEmail: event.target.checked }))}
            />
            Ask the payer for their email
          </label>
        </div>
        <p className="hint">Payers pay by card: the only payment type the payment page takes so far.</p>
        <Field label="Limit of payments" error={errors.limitPayments} hint="Empty: no limit">
          {(props) => <input {...props} {...text('limitPayments')} type="number" min={1} step={1} />}
        </Field>
        <Field label="Confirmation message" error={errors.confirmationMessage} hint="Shown to the payer after paying">
          {(props) => <textarea {...props} {...text('confirmationMessage')} rows={2} maxLength={1000} />}
        </Field>
        <Field label="Redirect URL" error={errors.redirectUrl} hint="Where the payer goes after paying (https://…)">
          {(props) => <input {...props} {...text('redirectUrl')} type="url" />}
        </Field>
        <Field label="Invoice id" error={errors.invoiceId}>
          {(props) => <input {...props} {...text('invoiceId')} maxLength={100} />}
        </Field>
        <Field label="Metadata" error={errors.metadata} hint="One key=value pair per line">
          {(props) => <textarea {...props} {...text('metadata')} rows={2} />}
        </Field>
        <ServerError error={create.error} />
        <div>
          <button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create the payment link'}
          </button>
        </div>
      </form>
      <PaymentLinkPreview
        link={{
          title: draft.title,
          description: draft.description,
          image: draft.image || null,
          amount: price && 'amount' in price ? price.amount : 0,
          currency: price && 'currency' in price ? price.currency : currencyCode.toUpperCase(),
        }}
        amountProblem={draft.amount.trim() ? priceProblem && `Not a valid amount: ${priceProblem.problem}` : 'No amount yet'}
        callToAction={draft.callToAction}
        askEmail={draft.askEmail}
      />
    </div>
  );
}
