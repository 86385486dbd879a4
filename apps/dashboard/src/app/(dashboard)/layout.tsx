import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { Shell } from '../../components/shell';
import { PATH_HEADER } from '../../lib/config';
import { httpStatusOf } from '../../lib/http-status';
import { serverTrpc } from '../../lib/server';

/** Every dashboard page needs a staff session; without one, the sign-in page, which comes back here. */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const staff = await (await serverTrpc()).staff.me.query().catch((error: unknown) => {
    if (httpStatusOf(error) === 401) return null;
    throw error;
  });
  if (!staff) {
    const path = (await headers()).get(PATH_HEADER);
    redirect(path && path !== '/' ? `/sign-in?next=${encodeURIComponent(path)}` : '/sign-in');
  }
  return <Shell staff={staff}>{children}</Shell>;
}
