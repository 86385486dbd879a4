'use client';

import { canTransition, type ChargeStatus } from '@gateway/core/charge/status';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type ReactNode } from 'react';
import { Field } from '../../../../components/field';
import { Message } from '../../../../components/message';
import { amountLeft, formatMoney } from '../../../../lib/format';
import { errorMessage, useTRPC } from '../../../../lib/trpc';
import type { Charge } from '../../../../lib/types';

/**
 * One action on a charge: its fields, a button, and its error announced. A click while the action
 * is under way is ignored: `isPending` disables the button only once React renders again, too late
 * for the second click of a double click, so a ref (set at once) guards the submission.
 */
function ActionForm({
  title,
  submit,
  mutation,
  onSubmit,
  children,
}: {
  title: string;
  submit: string;
  mutation: { isPending: boolean; error: unknown };
  onSubmit: (data: FormData) => Promise<unknown>;
  children?: ReactNode;
}) {
  const busy = useRef(false);
  return (
    <form
      className="stack"
      aria-label={title}
      onSubmit={(event) => {
        event.preventDefault();
        if (busy.current) return;
        busy.current = true;
        // A failure is shown from mutation.error.
        void onSubmit(new FormData(event.currentTarget))
          .catch(() => undefined)
          .finally(() => {
            busy.current = false;
          });
      }}
    >
      <h3>{title}</h3>
      {children}
      <Message kind="error">{mutation.error ? errorMessage(mutation.error) : null}</Message>
      <div>
        <button type="submit" disabled={mutation.isPending}>
          {mutation.isPending ? 'Working…' : submit}
        </button>
      </div>
    </form>
  );
}

const text = (data: FormData, name: string) => String(data.get(name) ?? '').trim() || undefined;

function AmountField({ currency, hint }: { currency: string; hint: string }) {
  return (
    <Field label={`Amount (${currency})`} hint={hint}>
      {(props) => <input name="amount" inputMode="decimal" {...props} />}
    </Field>
  );
}

/** Capture or void an authorisation; refund a captured charge in full or in part. */
export function ChargeActions({ charge }: { charge: Charge }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { chargeId, currency } = charge;
  const [done, setDone] = useState<string>();
  const onSuccess = async (updated: Charge) => {
    setDone(`Done: the charge is now ${updated.status.replaceAll('_', ' ')}.`);
    queryClient.setQueryData(trpc.charge.get.queryKey({ chargeId }), updated);
    await queryClient.invalidateQueries(trpc.charge.search.pathFilter());
  };
  const capture = useMutation(trpc.charge.capture.mutationOptions({ onSuccess }));
  const voidCharge = useMutation(trpc.charge.void.mutationOptions({ onSuccess }));
  const refund = useMutation(trpc.charge.refund.mutationOptions({ onSuccess }));
  const status = charge.status as ChargeStatus;
  const left = amountLeft(charge.amount, charge.refundedAmount, currency);
  const actions = [
    canTransition(status, 'capture') && (
      <ActionForm
        key="capture"
        title="Capture"
        submit="Capture"
        mutation={capture}
        onSubmit={(d) => capture.mutateAsync({ chargeId, amount: text(d, 'amount') })}
      >
        <AmountField
          currency={currency}
          hint={`Leave empty to capture all ${formatMoney(charge.authorisationAmount ?? charge.amount, currency)}`}
        />
      </ActionForm>
    ),
    canTransition(status, 'void') && (
      <ActionForm
        key="void"
        title="Void"
        submit="Void the authorisation"
        mutation={voidCharge}
        onSubmit={() => voidCharge.mutateAsync({ chargeId })}
      />
    ),
    canTransition(status, 'refund') && (
      <ActionForm
        key="refund"
        title="Refund"
        submit="Refund"
        mutation={refund}
        onSubmit={(d) => refund.mutateAsync({ chargeId, amount: text(d, 'amount'), comment: text(d, 'comment') })}
      >
        <AmountField
          currency={currency}
          hint={`Leave empty to refund all that is left${left === undefined ? '' : ` (${formatMoney(left, currency)})`}`}
        />
        <Field label="Comment">{(props) => <input name="comment" maxLength={500} {...props} />}</Field>
      </ActionForm>
    ),
  ].filter(Boolean);
  return (
    <section className="card stack" aria-labelledby="charge-actions">
      <h2 id="charge-actions">Actions</h2>
      <Message kind="success">{done}</Message>
      {actions.length > 0 ? actions : <p>No action applies to a charge in this state.</p>}
    </section>
  );
}
