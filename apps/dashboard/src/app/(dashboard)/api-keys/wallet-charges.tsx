'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/field';
import { Loaded } from '../../../components/loaded';
import { useTRPC } from '../../../lib/trpc';
import { ServerError } from '../../../components/server-error';

/** The form, from the saved settings: whether the public key takes wallet charges, and their cap. */
function WalletChargesForm({ saved }: { saved: { enabled: boolean; maxAmount: number | null } }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [enabled, setEnabled] = useState(saved.enabled);
  const [maxAmount, setMaxAmount] = useState(saved.maxAmount === null ? '' : String(saved.maxAmount));
  const save = useMutation(
    trpc.account.setWalletChargeSettings.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.account.walletChargeSettings.pathFilter()),
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ enabled, maxAmount: maxAmount === '' ? null : Number(maxAmount) });
  };
  return (
    <form className="stack" onSubmit={submit}>
      <label>
        <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} /> Take wallet charges made with the
        public key
      </label>
      <Field label="Largest wallet charge" hint="Whole units of the charge's currency; empty: no limit">
        {(props) => <input {...props} type="number" min={1} step={1} value={maxAmount} onChange={(e) => setMaxAmount(e.target.value)} />}
      </Field>
      <div>
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
      </div>
      <ServerError error={save.error} />
    </form>
  );
}

/** Device-wallet charges made with the public key (POST /charge/token/apple): on or off, and capped. */
export function WalletCharges() {
  const trpc = useTRPC();
  const settings = useQuery(trpc.account.walletChargeSettings.queryOptions());
  return (
    <section className="card stack" aria-labelledby="wallet-charges">
      <h2 id="wallet-charges">Wallet charges with the public key</h2>
      <p>The public key is public: anyone can use it. Cap what one wallet charge made with it may take, or switch them off.</p>
      <Loaded query={settings}>{(saved) => <WalletChargesForm saved={saved} />}</Loaded>
    </section>
  );
}
