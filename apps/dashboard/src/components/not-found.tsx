'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

/** A path segment as it was typed; as it came when it is no valid percent-encoding (decodeURIComponent throws). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * What a not-found page says (HTTP 404): what was asked for and is not there, and the way back to
 * its list. `thing` is what the last part of the address names ("charge"); without it, the page.
 */
export function NotFound({ thing, list }: { thing?: string; list: { href: string; name: string } }) {
  const pathname = usePathname();
  const id = decoded(pathname.split('/').pop() ?? '');
  return (
    <>
      <h1>{thing ? `${thing[0]?.toUpperCase()}${thing.slice(1)} not found` : 'Page not found'}</h1>
      <p>
        {thing ? (
          <>
            This account has no {thing} with the id <code>{id}</code>. Check the address: an id of another account is not shown here.
          </>
        ) : (
          <>
            There is no page at <code>{pathname}</code>.
          </>
        )}
      </p>
      <p>
        <Link href={list.href}>{list.name}</Link>
      </p>
    </>
  );
}
