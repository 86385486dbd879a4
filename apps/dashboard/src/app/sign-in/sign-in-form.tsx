'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter, useSearchParams } from 'next/navigation';
import { Field } from '../../components/field';
import { Message } from '../../components/message';
import { useHydrated } from '../../lib/hydrated';
import { SIGN_IN_REASONS, useTRPC } from '../../lib/trpc';
import { ServerError } from '../../components/server-error';

/**
 * Only pages of this dashboard: a `next` that points elsewhere would make this an open redirect.
 * The browser's own URL parser decides, so no spelling (`//host`, `/\host`, `https:…`, tabs)
 * can make it read another origin.
 */
function safeNext(next: string | null): string {
  const { origin } = window.location;
  try {
    const url = new URL(next ?? '/', origin);
    return url.origin === origin ? `${url.pathname}${url.search}` : '/';
  } catch {
    return '/';
  }
}

export function SignInForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const query = useSearchParams();
  const next = query.get('next');
  const reason = query.get('reason');
  const signIn = useMutation(trpc.staff.signIn.mutationOptions({ onSuccess: () => router.replace(safeNext(next)) }));
  const hydrated = useHydrated();
  return (
    <form
      method="post"
      className="card stack"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        signIn.mutate({ email: String(data.get('email')), password: String(data.get('password')) });
      }}
    >
      <Message kind="warning">
        {reason && Object.hasOwn(SIGN_IN_REASONS, reason) ? SIGN_IN_REASONS[reason as keyof typeof SIGN_IN_REASONS] : null}
      </Message>
      <Field label="Email">{(props) => <input name="email" type="email" autoComplete="username" required {...props} />}</Field>
      <Field label="Password">
        {(props) => <input name="password" type="password" autoComplete="current-password" required {...props} />}
      </Field>
      <ServerError error={signIn.error} />
      <button type="submit" disabled={!hydrated || signIn.isPending}>
        {signIn.isPending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
