import { useId } from 'react';

export interface Series {
  name: string;
  /** One value per date; null where there is nothing to plot (no payments that day). */
  values: Array<number | null>;
}

const COLOURS = ['#4338ca', '#c2410c', '#047857', '#be185d', '#0369a1', '#4d7c0f'];
const WIDTH = 480;
const HEIGHT = 220;
const PAD = { top: 12, right: 16, bottom: 28, left: 72 };

/** A round number at or above `value`, for the top of the scale. */
function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 2.5, 5, 10].map((step) => step * magnitude).find((candidate) => candidate >= value) ?? value;
}

/** Runs of consecutive values, so that a missing day breaks the line instead of bridging it. */
function segments(values: Array<number | null>): Array<Array<[number, number]>> {
  const runs: Array<Array<[number, number]>> = [[]];
  values.forEach((value, index) => {
    if (value === null) runs.push([]);
    else runs.at(-1)?.push([index, value]);
  });
  return runs.filter((run) => run.length > 0);
}

/**
 * A line chart in plain SVG, one line per series over the same dates. Screen readers get the
 * figure's caption and, under "Show the numbers", the data as a table.
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
  const top = max ?? niceCeiling(Math.max(0, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null))));
  const x = (index: number) => PAD.left + (dates.length < 2 ? 0 : (index / (dates.length - 1)) * (WIDTH - PAD.left - PAD.right));
  const y = (value: number) => HEIGHT - PAD.bottom - (value / top) * (HEIGHT - PAD.top - PAD.bottom);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * top);
  const labelled = [0, Math.floor((dates.length - 1) / 2), dates.length - 1].filter((v, i, all) => all.indexOf(v) === i);
  return (
    <figure className="chart card">
      <figcaption id={captionId}>
        <h2>{title}</h2>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={captionId}>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} stroke="#e4e7ee" />
            <text x={PAD.left - 8} y={y(tick) + 4} textAnchor="end" fontSize="13" fill="#5b6477">
              {format(tick)}
            </text>
          </g>
        ))}
        {labelled.map((index) => (
          <text
            key={index}
            x={x(index)}
            y={HEIGHT - 8}
            textAnchor={index === 0 ? 'start' : index === dates.length - 1 ? 'end' : 'middle'}
            fontSize="13"
            fill="#5b6477"
          >
            {dates[index]?.slice(5)}
          </text>
        ))}
        {series.map((s, n) => (
          <g key={s.name} stroke={COLOURS[n % COLOURS.length]} fill={COLOURS[n % COLOURS.length]}>
            {segments(s.values).map((run) => (
              <polyline key={run[0]?.[0]} fill="none" strokeWidth="2" points={run.map(([i, v]) => `${x(i)},${y(v)}`).join(' ')} />
            ))}
            {s.values.map((value, index) =>
              value === null ? null : (
                <circle key={index} cx={x(index)} cy={y(value)} r="3">
                  <title>{`${s.name}, ${dates[index]}: ${format(value)}`}</title>
                </circle>
              ),
            )}
          </g>
        ))}
      </svg>
      <ul className="legend">
        {series.map((s, n) => (
          <li key={s.name}>
            <span style={{ background: COLOURS[n % COLOURS.length] }} aria-hidden="true" />
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
                  <th key={s.name} scope="col" className="number">
                    {s.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {dates.map((date, index) => (
                <tr key={date}>
                  <th scope="row">{date}</th>
                  {series.map((s) => {
                    const value = s.values[index];
                    return (
                      <td key={s.name} className="number">
                        {value === null || value === undefined ? '—' : format(value)}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
