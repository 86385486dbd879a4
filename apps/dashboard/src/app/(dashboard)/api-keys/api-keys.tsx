'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CopyButton } from '../../../components/copy-button';
import { Loaded } from '../../../components/loaded';
import { Message } from '../../../components/message';
import { useTRPC } from '../../../lib/trpc';
import { ServerError } from '../../../components/server-error';

/** A key in full, with a button to copy it. */
function Key({ value, name, testId }: { value: string; name: string; testId: string }) {
  return (
    <>
      <code className="secret" data-testid={testId}>
        {value}
      </code>
      <div>
        <CopyButton text={value} label={`Copy the ${name}`} />
      </div>
    </>
  );
}

/** The public key, the end of the secret key, and rotation: a new secret key is shown once only. */
export function ApiKeys() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.account.keys.queryOptions());
  const [confirming, setConfirming] = useState(false);
  const rotate = useMutation(
    trpc.account.rotateSecretKey.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.account.keys.pathFilter()),
      onSettled: () => setConfirming(false),
    }),
  );
  return (
    <Loaded query={keys}>
      {({ publicKey, secretKeyHint }) => (
        <>
          <section className="card stack" aria-labelledby="public-key">
            <h2 id="public-key">Public key</h2>
            <p>For browsers and apps: it can only tokenise cards and take device-wallet payments (header x-publickey).</p>
            <Key value={publicKey} name="public key" testId="public-key" />
          </section>
          <section className="card stack" aria-labelledby="secret-key">
            <h2 id="secret-key">Secret key</h2>
            <p>
              For your servers only (header x-secretkey). The gateway keeps only a hash of it, so it cannot be shown again: the current one
              ends in <strong>…{secretKeyHint}</strong>.
            </p>
            {rotate.data ? (
              <>
                <Message kind="warning">
                  This is the only time the new secret key is shown. Store it now: the old key no longer works.
                </Message>
                <Key value={rotate.data.secretKey} name="secret key" testId="new-secret-key" />
              </>
            ) : confirming ? (
              <div className="stack">
                <Message kind="warning">The current secret key stops working at once. Every server using it must get the new one.</Message>
                <div className="row">
                  <button type="button" className="danger" onClick={() => rotate.mutate({})} disabled={rotate.isPending}>
                    {rotate.isPending ? 'Rotating…' : 'Yes, replace the secret key'}
                  </button>
                  <button type="button" className="secondary" onClick={() => setConfirming(false)}>
                    Cancel
                  </button>
                </div>
              </div>
            ) : (
              <div>
                <button type="button" onClick={() => setConfirming(true)}>
                  Rotate the secret key
                </button>
              </div>
            )}
            <ServerError error={rotate.error} />
          </section>
        </>
      )}
    </Loaded>
  );
}
