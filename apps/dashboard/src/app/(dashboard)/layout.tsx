import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { Shell } from '../../components/shell';
import { serverTrpc, statusOf } from '../../lib/server';

/** Every dashboard page needs a staff session; without one, the sign-in page. */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const staff = await (await serverTrpc()).staff.me.query().catch((error: unknown) => {
    if (statusOf(error) === 401) return null;
    throw error;
  });
  if (!staff) redirect('/sign-in');
  return <Shell staff={staff}>{children}</Shell>;
}
