'use client';

import Link, { useLinkStatus } from 'next/link';
import type { ReactNode } from 'react';

/** Said inside a link while the page it opens is read on the server (detail pages load before they are sent). */
function Opening() {
  const { pending } = useLinkStatus();
  return pending ? (
    <span role="status" className="link-pending">
      {' '}
      Loading…
    </span>
  ) : null;
}

/** A link from a list to a record's page, which says "Loading…" until that page arrives. */
export function DetailLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href}>
      {children}
      <Opening />
    </Link>
  );
}
