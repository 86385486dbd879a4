'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Details } from '../../components/details';
import { Field } from '../../components/field';
import { HeldCallsBanner } from '../../components/held-calls-banner';
import { LineChart } from '../../components/line-chart';
import { Loaded } from '../../components/loaded';
import { formatMoney } from '../../lib/format';
import { useTRPC } from '../../lib/trpc';
import type { Outputs } from '../../lib/types';

const PERIODS = [7, 14, 30, 90];
const percent = (value: number | null) =>
  value === null ? '—' : `${new Intl.NumberFormat('en', { maximumFractionDigits: 1 }).format(value)} %`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

type Stats = Outputs['dashboard']['stats'];

/** The period's headline figures, one card per currency (amounts of different currencies are never added). */
function Figures({ totals }: Pick<Stats, 'totals'>) {
  return (
    <div className="figures">
      {totals.map((t) => (
        <Details
          key={t.currency}
          title={`In ${t.currency}`}
          items={[
            ['Volume', formatMoney(t.volume, t.currency)],
            ['Payments', `${t.payments}${t.failed ? `, and ${t.failed} failed` : ''}`],
            ['Success rate', percent(t.successRate)],
            ['Refunds', `${formatMoney(t.refunded, t.currency)} (${plural(t.refunds, 'refund')})`],
          ]}
        />
      ))}
    </div>
  );
}

/** One volume chart per currency, and the success rate of the providers: at most eight lines each, the largest providers then "Other". */
function Charts({ timeZone, dates, totals, volume, successRate }: Stats) {
  return (
    <>
      <p className="hint">
        Days in the {timeZone} time zone. Success rate: payments accepted out of those accepted or failed; refunds made in the period, of
        any payment.
      </p>
      <Figures totals={totals} />
      <div className="grid-2">
        {volume.map(({ currency, series }) => (
          <LineChart
            key={currency}
            title={`Volume captured (${currency})`}
            dates={dates}
            series={series}
            format={(value) => formatMoney(value, currency)}
          />
        ))}
        <LineChart
          title="Success rate (accepted payments out of all provider attempts)"
          dates={dates}
          max={100}
          series={successRate}
          format={percent}
        />
      </div>
    </>
  );
}

/** Payment volume and success rate per provider and day, from the account's charges. */
export function HomeCharts() {
  const trpc = useTRPC();
  const [days, setDays] = useState(14);
  // Days as the staff member lives them, in the browser's time zone.
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const stats = useQuery(trpc.dashboard.stats.queryOptions({ days, timeZone }));
  return (
    <>
      <div className="page-header">
        <h1>Payments</h1>
        <Field label="Period">
          {(props) => (
            <select value={days} onChange={(event) => setDays(Number(event.target.value))} {...props}>
              {PERIODS.map((n) => (
                <option key={n} value={n}>
                  Last {n} days
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <HeldCallsBanner />
      <Loaded query={stats}>{(data) => <Charts {...data} />}</Loaded>
    </>
  );
}
