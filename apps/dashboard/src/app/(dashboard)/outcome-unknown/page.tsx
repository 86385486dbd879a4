import type { Metadata } from 'next';
import { HeldCallList } from './held-call-list';

export const metadata: Metadata = { title: 'Outcome unknown at the provider' };

export default function OutcomeUnknownPage() {
  return <HeldCallList />;
}
