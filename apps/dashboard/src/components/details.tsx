import { Fragment, useId, type ReactNode } from 'react';

/** A titled card of facts: term and value pairs (a missing value reads "—"). */
export function Details({ title, items }: { title: string; items: Array<[string, ReactNode]> }) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <dl className="details">
        {items.map(([term, value]) => (
          <Fragment key={term}>
            <dt>{term}</dt>
            <dd>{value ?? '—'}</dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}
