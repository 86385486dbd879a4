'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { ReactNode } from 'react';
import { useTRPC } from '../lib/trpc';

const SECTIONS = [
  { href: '/', label: 'Home' },
  { href: '/charges', label: 'Charges' },
  { href: '/customers', label: 'Customers' },
  { href: '/payment-links', label: 'Payment links' },
  { href: '/batches', label: 'Batches' },
  { href: '/providers', label: 'Providers' },
  { href: '/webhooks', label: 'Webhooks' },
  { href: '/api-keys', label: 'API keys' },
];

/** The signed-in layout: a skip link, the navigation (current page marked), who is signed in, sign-out. */
export function Shell({ staff, children }: { staff: { name: string; email: string; accountName: string }; children: ReactNode }) {
  const pathname = usePathname();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const signOut = useMutation(
    trpc.staff.signOut.mutationOptions({
      // A query still loading would come back 401 once the session has ended, and send the browser
      // to sign in again with this page as `next`, after (and instead of) the plain sign-in page.
      onMutate: () => queryClient.cancelQueries(),
      onSettled: () => window.location.assign('/sign-in'),
    }),
  );
  const current = (href: string) => (href === '/' ? pathname === '/' : pathname.startsWith(href));
  return (
    <div className="shell">
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="shell-nav">
        <div className="brand">{staff.accountName}</div>
        <nav aria-label="Dashboard">
          <ul>
            {SECTIONS.map(({ href, label }) => (
              <li key={href}>
                <Link href={href} aria-current={current(href) ? 'page' : undefined}>
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="shell-user">
          <div>{staff.email}</div>
          <button type="button" className="link" onClick={() => signOut.mutate({})} disabled={signOut.isPending}>
            Sign out
          </button>
        </div>
      </header>
      <main id="content" className="shell-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
