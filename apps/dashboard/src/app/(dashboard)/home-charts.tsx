'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Field } from '../../components/field';
import { LineChart } from '../../components/line-chart';
import { Loaded } from '../../components/loaded';
import { formatMoney } from '../../lib/format';
import { useTRPC } from '../../lib/trpc';
import type { Outputs } from '../../lib/types';

const PERIODS = [7, 14, 30, 90];
const percent = (value: number) => `${Math.round(value)} %`;

/** One volume chart per currency (amounts of different currencies are never added), and the success rate of every provider. */
function Charts({ timeZone, dates, providers }: Outputs['dashboard']['stats']) {
  const currencies = [...new Set(providers.flatMap((p) => p.currencies))];
  return (
    <>
      <p className="hint">Days in the {timeZone} time zone.</p>
      <div className="grid-2">
        {currencies.map((currency) => (
          <LineChart
            key={currency}
            title={`Volume captured (${currency})`}
            dates={dates}
            series={providers
              .filter((p) => p.currencies.includes(currency))
              .map((p) => ({ name: p.name, values: p.days.map((d) => d.volume[currency] ?? 0) }))}
            format={(value) => formatMoney(value, currency)}
          />
        ))}
        <LineChart
          title="Success rate (accepted payments out of all provider attempts)"
          dates={dates}
          max={100}
          series={providers.map((p) => ({
            name: p.name,
            values: p.days.map((d) => (d.accepted + d.failed === 0 ? null : (100 * d.accepted) / (d.accepted + d.failed))),
          }))}
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
        <h1>Payments by provider</h1>
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
      <Loaded query={stats}>{(data) => <Charts {...data} />}</Loaded>
    </>
  );
}
