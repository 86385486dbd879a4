'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { CopyButton } from '../../../../components/copy-button';
import { Field } from '../../../../components/field';
import { Message } from '../../../../components/message';
import { ServerError } from '../../../../components/server-error';
import { formatDate } from '../../../../lib/format';
import { ageText, consequence, idsNeeded, lookupOf, operationText, settledByText, type HeldCall } from '../../../../lib/held-calls';
import { httpStatusOf } from '../../../../lib/http-status';
import { errorMessage, fieldErrors, useTRPC } from '../../../../lib/trpc';

/** A charge's calls held for staff: those waiting, and those settled (for its history). */
export function useHeldCallsOf(chargeId: string): { open: HeldCall[]; settled: HeldCall[] } {
  const trpc = useTRPC();
  const open = useQuery(trpc.dashboard.unknownOutcomes.queryOptions({ chargeId })).data ?? [];
  const settled = useQuery(trpc.dashboard.unknownOutcomes.queryOptions({ chargeId, settled: true })).data ?? [];
  return { open, settled };
}

/** The history's lines of a charge's held calls: held, then settled by whom and how. */
export function heldCallEvents(calls: HeldCall[]): Array<{ at: string; text: string }> {
  return calls.flatMap((h) => {
    const { where } = lookupOf(h);
    const held = { at: h.dateAdded, text: `Outcome unknown at ${where}: ${operationText(h)} held for staff` };
    if (!h.resolvedAt) return [held];
    const found = h.resolution === 'made' ? 'made' : 'did not make';
    return [held, { at: h.resolvedAt, text: `${settledByText(h)} found that ${where} ${found} ${operationText(h)}` }];
  });
}

/**
 * First thing on the page of a charge with a call held for staff: what to look up at the provider,
 * and the form to settle it as found there. Settling moves money state, so it asks first (a modal
 * dialog saying what will happen). What the gateway answers is shown: a refusal (400, the field at
 * fault marked), or that someone settled it otherwise (409). The charge and the lists are read
 * again afterwards.
 */
export function HeldCallNotices({ chargeId }: { chargeId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { open } = useHeldCallsOf(chargeId);
  const [news, setNews] = useState<{ kind: 'success' | 'error'; text: string }>();
  const newsRef = useRef<HTMLDivElement>(null);
  // The form goes once settled: focus goes to what happened, not to the page's body.
  useEffect(() => {
    if (news) newsRef.current?.focus();
  }, [news]);

  async function settled(result: { kind: 'success' | 'error'; text: string }) {
    setNews(result);
    await Promise.all([
      queryClient.invalidateQueries(trpc.charge.get.queryFilter({ chargeId })),
      queryClient.invalidateQueries(trpc.dashboard.unknownOutcomes.pathFilter()),
      queryClient.invalidateQueries(trpc.charge.search.pathFilter()),
    ]);
  }

  return (
    <>
      <Message kind={news?.kind ?? 'success'} ref={newsRef}>
        {news?.text}
      </Message>
      {open.map((h) => (
        <SettleHeldCall key={h.id} h={h} onSettled={(result) => void settled(result)} />
      ))}
    </>
  );
}

type Choice = 'made' | 'not_made';

function SettleHeldCall({ h, onSettled }: { h: HeldCall; onSettled: (result: { kind: 'success' | 'error'; text: string }) => void }) {
  const trpc = useTRPC();
  const id = useId();
  const lookup = lookupOf(h);
  const needs = idsNeeded(h.operation);
  const provider = h.providerName || lookup.where;
  const [choice, setChoice] = useState<Choice>();
  const [transactionId, setTransactionId] = useState('');
  const [authorisationId, setAuthorisationId] = useState('');
  const [problems, setProblems] = useState<Partial<Record<'choice' | 'transactionId' | 'authorisationId', string>>>({});
  const dialog = useRef<HTMLDialogElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const busy = useRef(false);
  const settle = useMutation(trpc.dashboard.settleUnknownOutcome.mutationOptions());
  const made = choice === 'made';
  const answered = fieldErrors(settle.error);

  /** The form checked; the confirmation opened when nothing is missing. */
  function review(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing: typeof problems = {};
    if (!choice) missing.choice = `Choose what you found in ${lookup.where}`;
    if (made && needs.transaction && !transactionId.trim()) missing.transactionId = `Enter the ${lookup.transactionLabel}`;
    if (made && needs.authorisation && !authorisationId.trim()) missing.authorisationId = `Enter the ${lookup.authorisationLabel}`;
    setProblems(missing);
    const first = Object.keys(missing)[0];
    if (first) {
      form.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    settle.reset();
    dialog.current?.showModal();
  }

  async function confirm() {
    if (busy.current || !choice) return;
    busy.current = true;
    try {
      await settle.mutateAsync({
        id: h.id,
        made,
        ...(made && needs.transaction && { transactionId: transactionId.trim() }),
        ...(made && needs.authorisation && { authorisationId: authorisationId.trim() }),
      });
      dialog.current?.close();
      onSettled({
        kind: 'success',
        text: `Settled: ${provider} ${made ? 'made' : 'did not make'} ${operationText(h)}.`,
      });
    } catch (error) {
      dialog.current?.close();
      // Settled otherwise by someone else meanwhile: the page shows what they recorded.
      if (httpStatusOf(error) === 409) onSettled({ kind: 'error', text: `${errorMessage(error)}. The page now shows what was recorded.` });
      // Otherwise shown by the form (settling the same way again is safe: it changes nothing twice).
    } finally {
      busy.current = false;
    }
  }

  const ids = [
    made && needs.transaction && `${lookup.transactionLabel} ${transactionId.trim()}`,
    made && needs.authorisation && `${lookup.authorisationLabel} ${authorisationId.trim()}`,
  ].filter(Boolean);
  return (
    <section className="card callout held stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        Outcome unknown at {provider}: look up {lookup.what} {h.providerReference} in {lookup.where}
      </h2>
      <p>
        The gateway sent {operationText(h)} to {provider} on <time dateTime={h.dateAdded}>{formatDate(h.dateAdded)}</time> (
        {ageText(h.dateAdded)}) and its answer was lost: nobody knows whether {provider} made it. It is not sent again. Find {lookup.what}{' '}
        <code>{h.providerReference}</code> in {lookup.where}, then record what you found.
      </p>
      <div className="row">
        <CopyButton text={h.providerReference} label={`Copy the ${lookup.what}`} />
        <Link href="/outcome-unknown">All calls with outcome unknown</Link>
      </div>
      <form ref={form} className="stack" noValidate onSubmit={review}>
        <fieldset className="field checkboxes" aria-describedby={problems.choice ? `${id}-choice-error` : undefined}>
          <legend>What did you find in {lookup.where}?</legend>
          {(
            [
              ['made', 'The provider made it'],
              ['not_made', 'The provider did not make it'],
            ] as const
          ).map(([value, label], index) => (
            <label key={value}>
              <input
                type="radio"
                name={`${id}-choice`}
                value={value}
                checked={choice === value}
                data-field={index === 0 ? 'choice' : undefined}
                onChange={() => {
                  setChoice(value);
                  setProblems({});
                }}
              />
              {label}
            </label>
          ))}
          {problems.choice && (
            <span id={`${id}-choice-error`} className="field-error">
              {problems.choice}
            </span>
          )}
        </fieldset>
        {made && needs.transaction && (
          <IdField
            name="transactionId"
            label={lookup.transactionLabel}
            hint={`The id ${lookup.where} gave the ${h.operation}`}
            error={problems.transactionId ?? answered.transactionId}
            value={transactionId}
            onChange={setTransactionId}
          />
        )}
        {made && needs.authorisation && (
          <IdField
            name="authorisationId"
            label={lookup.authorisationLabel}
            hint={`The id of the authorisation in ${lookup.where}`}
            error={problems.authorisationId ?? answered.authorisationId}
            value={authorisationId}
            onChange={setAuthorisationId}
          />
        )}
        <ServerError error={settle.error && httpStatusOf(settle.error) !== 409 ? settle.error : null} />
        <div>
          <button type="submit" disabled={settle.isPending}>
            Settle…
          </button>
        </div>
      </form>
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-confirm`}
        onCancel={(event) => {
          if (busy.current) event.preventDefault();
        }}
      >
        <div className="stack">
          <h2 id={`${id}-confirm`}>Settle as {made ? 'made' : 'not made'}</h2>
          <p>
            You record that {provider} {made ? 'made' : 'did not make'} {operationText(h)} ({lookup.what} {h.providerReference})
            {ids.length > 0 ? `, under ${ids.join(' and ')}` : ''}.
          </p>
          <p>
            <strong>{consequence(h, made)}</strong> It cannot be undone.
          </p>
          <div className="row">
            <button type="button" disabled={settle.isPending} onClick={() => void confirm()}>
              {settle.isPending ? 'Settling…' : made ? `Confirm: ${provider} made it` : `Confirm: ${provider} did not make it`}
            </button>
            <button type="button" className="secondary" disabled={settle.isPending} onClick={() => dialog.current?.close()}>
              Back
            </button>
          </div>
        </div>
      </dialog>
    </section>
  );
}

/** A field for an id staff copy from the provider's portal. */
function IdField(props: {
  name: 'transactionId' | 'authorisationId';
  label: string;
  hint: string;
  error?: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={props.label} hint={props.hint} error={props.error}>
      {(field) => (
        <input
          {...field}
          data-field={props.name}
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
