'use client';

import { useId } from 'react';
import { CartesianGrid, Line, LineChart as Chart, Tooltip, XAxis, YAxis } from 'recharts';

export interface Series {
  key: string;
  name: string;
  /** One value per date; null where there is nothing to plot (no payments that day). */
  values: Array<number | null>;
}

/** Eight colours apart from one another (the dashboard charts at most eight lines), each 3:1 or more against white. */
const COLOURS = ['#4338ca', '#c2410c', '#047857', '#be185d', '#0369a1', '#4d7c0f', '#7e22ce', '#57534e'];
const colourOf = (n: number) => COLOURS[n % COLOURS.length];

/** "Nov 27" for 2026-11-27: a day of the period, already in the staff member's time zone. */
const dayLabel = (date: string) =>
  new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(date));

/**
 * A line chart (Recharts), one line per series over the same dates: the y-axis as wide as its
 * labels in `format`, a missing day breaking its line. Screen readers get the figure's caption and,
 * under "Show the numbers", the data as a table.
 */
export function LineChart({
  title,
  dates,
  series,
  format,
  max,
}: {
  title: string;
  dates: string[];
  series: Series[];
  format: (value: number) => string;
  max?: number;
}) {
  const captionId = useId();
  const rows = dates.map((date, index) => ({ date, values: series.map((s) => s.values[index] ?? null) }));
  return (
    <figure className="chart card">
      <figcaption id={captionId}>
        <h2>{title}</h2>
      </figcaption>
      <Chart
        responsive
        data={rows}
        title={title}
        style={{ width: '100%', aspectRatio: 2.2 }}
        margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
      >
        <CartesianGrid stroke="#e4e7ee" vertical={false} />
        <XAxis dataKey="date" tickFormatter={dayLabel} tick={{ fill: '#5b6477', fontSize: 13 }} minTickGap={16} />
        <YAxis
          width="auto"
          domain={max === undefined ? [0, 'auto'] : [0, max]}
          tickFormatter={format}
          tick={{ fill: '#5b6477', fontSize: 13 }}
        />
        <Tooltip
          formatter={(value) => (typeof value === 'number' ? format(value) : '—')}
          labelFormatter={(date) => dayLabel(String(date))}
        />
        {series.map((s, n) => (
          <Line
            key={s.key}
            name={s.name}
            dataKey={(row: (typeof rows)[number]) => row.values[n]}
            stroke={colourOf(n)}
            fill={colourOf(n)}
            strokeWidth={2}
            dot={{ r: 3 }}
            isAnimationActive={false}
          />
        ))}
      </Chart>
      <ul className="legend">
        {series.map((s, n) => (
          <li key={s.key}>
            <span style={{ background: colourOf(n) }} aria-hidden="true" />
            {s.name}
          </li>
        ))}
      </ul>
      <details>
        <summary>Show the numbers</summary>
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                {series.map((s) => (
                  <th key={s.key} scope="col" className="number">
                    {s.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.date}>
                  <th scope="row">{row.date}</th>
                  {row.values.map((value, n) => (
                    <td key={series[n]?.key} className="number">
                      {value === null ? '—' : format(value)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
