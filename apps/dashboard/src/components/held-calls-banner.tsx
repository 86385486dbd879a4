'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useId } from 'react';
import { HELD_LIST_LIMIT } from '../lib/held-calls';
import { useTRPC } from '../lib/trpc';

/**
 * On the pages staff open every day (home, charges): how many calls wait for them because their
 * outcome is unknown at the provider, linking to the list. Nothing when none waits.
 */
export function HeldCallsBanner() {
  const trpc = useTRPC();
  const id = useId();
  const open = useQuery(trpc.dashboard.unknownOutcomes.queryOptions({})).data ?? [];
  if (open.length === 0) return null;
  const count = open.length >= HELD_LIST_LIMIT ? `${HELD_LIST_LIMIT} or more calls` : open.length === 1 ? '1 call' : `${open.length} calls`;
  return (
    <section className="card callout held stack" aria-labelledby={id}>
      <h2 id={id}>Outcome unknown at the provider: {count}</h2>
      <p>
        The provider’s answer was lost, so nobody knows whether it made {open.length === 1 ? 'it' : 'them'}. The gateway sends nothing
        again: look each one up at the provider and settle it.
      </p>
      <div>
        <Link className="button" href="/outcome-unknown">
          Review the calls with outcome unknown
        </Link>
      </div>
    </section>
  );
}
