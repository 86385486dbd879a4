'use client';

import { useQuery } from '@tanstack/react-query';
import { Details } from '../../../../components/details';
import { formatDate } from '../../../../lib/format';
import { useTRPC } from '../../../../lib/trpc';
import type { Charge } from '../../../../lib/types';

type Outcome = NonNullable<Charge['threeDs']>;

/** EMV 3-D Secure transStatus in words. */
const TRANS_STATUS: Record<NonNullable<Outcome['transStatus']>, string> = {
  Y: 'authenticated',
  A: 'attempted (not authenticated by the issuer)',
  N: 'not authenticated',
  R: 'rejected by the issuer',
  U: 'unavailable',
  C: 'challenge required',
};

const FLOW: Record<NonNullable<Outcome['flow']>, string> = { challenge: 'Challenge', frictionless: 'Frictionless (no challenge)' };

const yesNo = (value: boolean | null) => (value === null ? null : value ? 'Yes' : 'No');

/** A charge that waits, PENDING, for its payer's 3-D Secure authentication: its redirect URL is open. */
export const awaitingAuthentication = (c: Charge) => c.status === 'PENDING' && c.threeDsRedirectUrl !== null;

/** Since when the payer is awaited, and when the gateway gives up on them. */
function Waiting({ chargeId }: { chargeId: string }) {
  const trpc = useTRPC();
  const wait = useQuery(trpc.dashboard.authenticationWait.queryOptions({ chargeId })).data;
  return (
    <Details
      title="3-D Secure"
      items={[
        ['Outcome', 'Waiting for the payer to authenticate with their bank'],
        ['Waiting since', wait?.waitingSince && formatDate(wait.waitingSince)],
        ['Gateway gives up at', wait?.givesUpAt && formatDate(wait.givesUpAt)],
      ]}
    />
  );
}

/**
 * How the payer of a charge was authenticated (3-D Secure): whether the issuer authenticated them,
 * the flow, the EMV result in words, the ECI and whether liability shifted to the issuer; or that
 * the charge still waits for them. Nothing for a charge that never took part.
 */
export function ThreeDSecure({ c }: { c: Charge }) {
  if (awaitingAuthentication(c)) return <Waiting chargeId={c.chargeId} />;
  const outcome = c.threeDs;
  if (!outcome) return null;
  return (
    <Details
      title="3-D Secure"
      items={[
        ['Outcome', c.threeDsVerified ? 'Authenticated' : 'Not authenticated'],
        ['Flow', outcome.flow && FLOW[outcome.flow]],
        ['Result (transStatus)', outcome.transStatus && `${outcome.transStatus}: ${TRANS_STATUS[outcome.transStatus]}`],
        ['ECI', outcome.eci],
        ['Liability shift', yesNo(outcome.liabilityShift)],
        ['Version', outcome.version],
      ]}
    />
  );
}
