'use client';

import { canTransition, type ChargeStatus } from '@gateway/core/charge/status';
import { parseAmount, toMinorUnits, parseDecimal, type AmountProblem } from '@gateway/core/money/amount';
import { findCurrency } from '@gateway/core/money/currencies';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Field } from '../../../../components/field';
import { Message } from '../../../../components/message';
import { ServerError } from '../../../../components/server-error';
import { amountLeft, formatMoney } from '../../../../lib/format';
import { mayHaveActed } from '../../../../lib/http-status';
import { fieldErrors, useTRPC, useTRPCClient, withIdempotencyKey } from '../../../../lib/trpc';
import type { Charge } from '../../../../lib/types';

/** What an action sends: an amount for capture and refund, a reason for a refund. */
interface ActionInput {
  amount?: string;
  comment?: string;
}

/** One action on a charge that moves money, as its dialog presents it. */
interface MoneyAction {
  /** The verb of the buttons: "Refund" (the confirm button adds the amount). */
  verb: string;
  /** The button that opens the dialog, and the dialog's title. */
  title: string;
  /** The amount the action applies to: prefilled, and the most it may be when `editable`. */
  amount: number;
  editable: boolean;
  /** "left to refund": how the hint names the most the amount may be. */
  most?: string;
  withReason?: boolean;
  send: (input: ActionInput, idempotencyKey: string) => Promise<Charge>;
  /** What happened and what is left, once it has. */
  done: (amount: number, updated: Charge) => string;
}

/** 32 random hex digits (crypto.randomUUID exists only on https or localhost pages). */
function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const PROBLEMS: Record<AmountProblem, string> = {
  not_a_number: 'Enter the amount as a number, such as 20.50',
  not_positive: 'The amount must be more than zero',
  too_precise: 'The amount has more decimals than the currency has',
  too_large: 'The amount is too large',
};

/** What is wrong with the amount typed in, or undefined when it can be sent (empty is never "all"). */
function amountProblem(text: string, currencyCode: string, most: number): string | undefined {
  if (text.trim() === '') return 'Enter the amount';
  const currency = findCurrency(currencyCode);
  if (!currency) return undefined;
  const parsed = parseAmount(text, currency);
  if (!parsed.ok) return PROBLEMS[parsed.problem];
  const mostDecimal = parseDecimal(most);
  const mostMinor = mostDecimal && toMinorUnits(mostDecimal, currency);
  return mostMinor !== undefined && parsed.minor > mostMinor ? `At most ${formatMoney(most, currencyCode)}` : undefined;
}

/**
 * An action's button and its dialog (a native modal <dialog>: focus moves into it, Escape closes
 * it, and focus goes back to the button). The confirm button names the action and the amount.
 * The request carries an Idempotency-Key. A new one is made only for a new submission once the last
 * one's outcome is known (done, or refused); after an outcome that is not (no answer, a server
 * error), the dialog offers only that same submission again, with the same key, even after it is
 * closed and opened again: the gateway answers the first outcome, so it can never act twice. A click while the
 * request runs is ignored (`busy`, set at once: `isPending` only disables the button once React
 * renders again, too late for the second click of a double click), and the dialog cannot be closed
 * then, so that it cannot be opened again for a second request while the first one runs.
 */
function ActionDialog({
  action,
  currency,
  onDone,
  onUnclear,
}: {
  action: MoneyAction;
  currency: string;
  onDone: (text: string, updated: Charge) => void;
  onUnclear: () => void;
}) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const busy = useRef(false);
  const succeeded = useRef(false);
  // The submission whose outcome is not known yet: what it sent, and under which key.
  const unsettled = useRef<{ input: ActionInput; key: string }>(undefined);
  const [amount, setAmount] = useState('');
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string>();
  const mutation = useMutation({ mutationFn: ({ input, key }: { input: ActionInput; key: string }) => action.send(input, key) });

  function open() {
    const retry = unsettled.current?.input;
    setAmount(retry?.amount ?? String(action.amount));
    setComment(retry?.comment ?? '');
    setProblem(undefined);
    succeeded.current = false;
    if (!retry) mutation.reset();
    dialog.current?.showModal();
  }

  function close() {
    if (!busy.current) dialog.current?.close();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy.current) return;
    const amountField = event.currentTarget.elements.namedItem('amount') as HTMLInputElement | null;
    const wrong = !unsettled.current && action.editable ? amountProblem(amount, currency, action.amount) : undefined;
    setProblem(wrong);
    if (wrong) {
      amountField?.focus();
      return;
    }
    const submission = unsettled.current ?? {
      input: {
        ...(action.editable && { amount: amount.trim() }),
        ...(action.withReason && comment.trim() && { comment: comment.trim() }),
      },
      key: newIdempotencyKey(),
    };
    unsettled.current = submission;
    busy.current = true;
    try {
      const updated = await mutation.mutateAsync(submission);
      unsettled.current = undefined;
      busy.current = false;
      succeeded.current = true;
      dialog.current?.close();
      onDone(action.done(action.editable ? Number(submission.input.amount) : action.amount, updated), updated);
    } catch (error) {
      // Shown from mutation.error. Refused: nothing was done, a new submission may be made. Otherwise
      // it may have been: only the same one again, under the same key; and the charge is read again.
      if (!mayHaveActed(error)) unsettled.current = undefined;
      else onUnclear();
      busy.current = false;
    }
  }

  const valid = !action.editable || amountProblem(amount, currency, action.amount) === undefined;
  const confirm = valid ? `${action.verb} ${formatMoney(action.editable ? Number(amount) : action.amount, currency)}` : action.verb;
  const amountError = problem ?? fieldErrors(mutation.error).amount;
  return (
    <>
      <button ref={opener} type="button" onClick={open}>
        {action.title}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        onCancel={(event) => {
          if (busy.current) event.preventDefault();
        }}
        onClose={() => {
          setProblem(undefined);
          setAmount('');
          setComment('');
          // Back where the dialog was opened from; after it acted, the charge's message takes the focus.
          if (!succeeded.current) opener.current?.focus();
        }}
      >
        <form className="stack" noValidate onSubmit={submit}>
          <h2 id={titleId}>{action.title}</h2>
          {action.editable ? (
            <Field
              label={`Amount (${currency})`}
              hint={`At most ${formatMoney(action.amount, currency)}${action.most ? ` ${action.most}` : ''}`}
              error={amountError}
            >
              {(props) => (
                <input
                  name="amount"
                  inputMode="decimal"
                  value={amount}
                  readOnly={unsettled.current !== undefined && mutation.isError}
                  onChange={(e) => {
                    setAmount(e.target.value);
                    setProblem(undefined);
                  }}
                  {...props}
                />
              )}
            </Field>
          ) : (
            <p>Amount: {formatMoney(action.amount, currency)}</p>
          )}
          {action.withReason && (
            <Field label="Reason (optional)" error={fieldErrors(mutation.error).comment}>
              {(props) => (
                <input
                  name="comment"
                  maxLength={500}
                  value={comment}
                  readOnly={unsettled.current !== undefined && mutation.isError}
                  onChange={(e) => setComment(e.target.value)}
                  {...props}
                />
              )}
            </Field>
          )}
          <ServerError error={mutation.error} />
          {unsettled.current && mayHaveActed(mutation.error) && (
            <p className="hint">
              It may have been carried out. Confirming again sends the same request under the same Idempotency-Key: the gateway answers what
              happened, and it is never done twice.
            </p>
          )}
          <div className="row">
            <button type="submit" disabled={mutation.isPending}>
              {mutation.isPending ? 'Working…' : confirm}
            </button>
            <button type="button" className="secondary" onClick={close} disabled={mutation.isPending}>
              Back
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

/** Capture or void an authorisation; refund a captured charge in full or in part. Each asks first. */
export function ChargeActions({ charge }: { charge: Charge }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const { chargeId, currency } = charge;
  const [done, setDone] = useState<{ text: string }>();
  const doneMessage = useRef<HTMLDivElement>(null);
  // The buttons change with the charge's state: focus goes to what happened, not to the page's body.
  useEffect(() => {
    if (done) doneMessage.current?.focus();
  }, [done]);
  const money = (amount: number) => formatMoney(amount, currency);
  const status = charge.status as ChargeStatus;
  const authorised = charge.authorisationAmount ?? charge.amount;

  async function onDone(text: string, updated: Charge) {
    setDone({ text });
    queryClient.setQueryData(trpc.charge.get.queryKey({ chargeId }), updated);
    await queryClient.invalidateQueries(trpc.charge.search.pathFilter());
  }
  const leftToRefund = (c: Charge) => amountLeft(c.amount, c.refundedAmount, currency);

  const actions: MoneyAction[] = [];
  if (canTransition(status, 'capture')) {
    actions.push(
      {
        verb: 'Capture',
        title: 'Capture',
        amount: authorised,
        editable: true,
        most: 'authorised',
        send: (input, key) => client.charge.capture.mutate({ chargeId, amount: input.amount }, withIdempotencyKey(key)),
        done: (amount, updated) =>
          `Captured ${money(amount)} of ${money(authorised)} authorised; ${money(leftToRefund(updated) ?? amount)} can be refunded.`,
      },
      {
        verb: 'Void',
        title: 'Void the authorisation',
        amount: authorised,
        editable: false,
        send: (_input, key) => client.charge.void.mutate({ chargeId }, withIdempotencyKey(key)),
        done: () => `Authorisation of ${money(authorised)} cancelled; nothing was taken from the payer.`,
      },
    );
  }
  if (canTransition(status, 'refund')) {
    actions.push({
      verb: 'Refund',
      title: 'Refund',
      amount: leftToRefund(charge) ?? charge.amount,
      editable: true,
      most: 'left to refund',
      withReason: true,
      send: (input, key) => client.charge.refund.mutate({ chargeId, ...input }, withIdempotencyKey(key)),
      done: (amount, updated) => {
        const left = leftToRefund(updated);
        return `Refunded ${money(amount)}; ${left ? `${money(left)} left to refund` : 'nothing left to refund'}.`;
      },
    });
  }
  return (
    <section className="card stack" aria-labelledby="charge-actions">
      <h2 id="charge-actions">Actions</h2>
      <Message kind="success" ref={doneMessage}>
        {done?.text}
      </Message>
      {actions.length > 0 ? (
        <div className="row">
          {actions.map((action) => (
            <ActionDialog
              key={action.title}
              action={action}
              currency={currency}
              onDone={(text, updated) => void onDone(text, updated)}
              onUnclear={() => void queryClient.invalidateQueries(trpc.charge.get.queryFilter({ chargeId }))}
            />
          ))}
        </div>
      ) : (
        <p>No action applies to a charge in this state.</p>
      )}
    </section>
  );
}
