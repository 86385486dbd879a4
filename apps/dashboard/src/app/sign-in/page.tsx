import type { Metadata } from 'next';
import { Suspense } from 'react';
import { SignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Sign in' };

export default function SignInPage() {
  return (
    <main className="sign-in">
      <h1>Sign in to the dashboard</h1>
      <Suspense>
        <SignInForm />
      </Suspense>
    </main>
  );
}
