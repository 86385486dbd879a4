'use client';

import { containsCardNumber } from '@gateway/core/card/card-number-in-text';
import type { UseQueryResult } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { DataTable, type Column } from './data-table';
import { Field } from './field';
import { Loaded } from './loaded';

export interface FilterField {
  name: string;
  label: string;
  type?: 'text' | 'search' | 'date' | 'select';
  options?: ReadonlyArray<string | { value: string; label: string }>;
  hint?: string;
  inputMode?: 'numeric' | 'decimal';
  maxLength?: number;
  /** Shown under "More filters", folded unless it is in use. */
  more?: boolean;
  /** A date field that bounds a range: the API gets the start (`from`) or the end (`until`) of the day picked. */
  day?: 'from' | 'until';
}

/**
 * The instant the API compares with for a day picked in a date field, in the staff member's time
 * zone: just before the day starts for `from` (the API's bound is exclusive), the start of the next
 * day for `until`; so both days picked are included.
 */
function dayBound(day: string, bound: 'from' | 'until'): string {
  const [year = NaN, month = NaN, date = NaN] = day.split('-').map(Number);
  const instant = bound === 'from' ? new Date(year, month - 1, date).getTime() - 1 : new Date(year, month - 1, date + 1).getTime();
  return Number.isNaN(instant) ? day : new Date(instant).toISOString();
}

export const PAGE_SIZE = 20;

/** The date range every search of the API takes (addedAfter, addedBefore), as two inclusive days. */
export function addedFilters(more = false): FilterField[] {
  return [
    { name: 'addedAfter', label: 'Added from', type: 'date', day: 'from', more },
    { name: 'addedBefore', label: 'Added until', type: 'date', day: 'until', more },
  ];
}

/** A search's filters and page, kept in the URL so that it can be reloaded, shared and gone back to. */
export function useSearch(fields: FilterField[]) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters: Record<string, string> = {};
  for (const { name } of fields) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  const skip = Math.max(0, Math.floor(Number(params.get('skip')) || 0));
  const input: Record<string, string | number> = { limit: PAGE_SIZE, skip };
  for (const { name, day } of fields) {
    const value = filters[name];
    if (value) input[name] = day ? dayBound(value, day) : value;
  }
  const go = (values: Record<string, string>, offset: number) => {
    const next = new URLSearchParams(Object.entries(values).filter(([, value]) => value !== ''));
    if (offset > 0) next.set('skip', String(offset));
    router.push(`${pathname}?${next.toString()}`);
  };
  return {
    fields,
    filters,
    paging: { limit: PAGE_SIZE, skip },
    /** What the search operation is given: the filters (days as instants) and the page. */
    input,
    search: (values: Record<string, string>) => go(values, 0),
    page: (offset: number) => go(filters, offset),
  };
}

export type Search = ReturnType<typeof useSearch>;

/** What a filter may not be sent with: a full card number is never searched, nor put in the page's address. */
const CARD_NUMBER_REFUSED = 'A full card number is never searched (nor kept in the address bar): search by its last four digits';

function FilterControl({ field, value, error }: { field: FilterField; value: string | undefined; error?: string }) {
  return (
    <Field label={field.label} hint={field.hint} error={error}>
      {(props) =>
        field.type === 'select' ? (
          <select name={field.name} defaultValue={value ?? ''} {...props}>
            <option value="">Any</option>
            {field.options?.map((option) => {
              const { value: optionValue, label } = typeof option === 'string' ? { value: option, label: option } : option;
              return (
                <option key={optionValue} value={optionValue}>
                  {label}
                </option>
              );
            })}
          </select>
        ) : (
          <input
            name={field.name}
            type={field.type ?? 'text'}
            defaultValue={value ?? ''}
            inputMode={field.inputMode}
            maxLength={field.maxLength}
            {...props}
          />
        )
      }
    </Field>
  );
}

function Filters({ search }: { search: Search }) {
  const { fields, filters } = search;
  const [refused, setRefused] = useState<string>();
  const controls = (more: boolean) =>
    fields
      .filter((field) => Boolean(field.more) === more)
      .map((field) => (
        <FilterControl
          key={field.name}
          field={field}
          value={filters[field.name]}
          error={refused === field.name ? CARD_NUMBER_REFUSED : undefined}
        />
      ));
  const folded = fields.filter((field) => field.more);
  return (
    <form
      key={JSON.stringify(filters)}
      role="search"
      className="card stack"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const values = Object.fromEntries(fields.map(({ name }) => [name, String(data.get(name) ?? '').trim()]));
        const withCardNumber = fields.find(({ name }) => containsCardNumber(values[name] ?? ''));
        setRefused(withCardNumber?.name);
        if (withCardNumber) (event.currentTarget.elements.namedItem(withCardNumber.name) as HTMLElement | null)?.focus();
        else search.search(values);
      }}
    >
      <div className="form-grid">{controls(false)}</div>
      {folded.length > 0 && (
        <details open={folded.some((field) => filters[field.name])}>
          <summary>More filters</summary>
          <div className="form-grid">{controls(true)}</div>
        </details>
      )}
      <div className="row">
        <button type="submit">Search</button>
        <button type="button" className="secondary" onClick={() => search.search({})}>
          Clear
        </button>
      </div>
    </form>
  );
}

function Pager({ search, count }: { search: Search; count: number }) {
  const { limit, skip } = search.paging;
  const last = Math.min(skip + limit, count);
  if (count === 0) return null;
  return (
    <nav className="pager" aria-label="Pages of results">
      <span role="status">{`${skip + 1}–${last} of ${count}`}</span>
      <div className="row" hidden={count <= limit && skip === 0}>
        <button type="button" className="secondary" disabled={skip === 0} onClick={() => search.page(Math.max(0, skip - limit))}>
          Previous page
        </button>
        <button type="button" className="secondary" disabled={last >= count} onClick={() => search.page(skip + limit)}>
          Next page
        </button>
      </div>
    </nav>
  );
}

/** Filters, the matching page of results as a table, and paging: every search view of the dashboard. */
export function SearchView<D, T>({
  search,
  query,
  select,
  caption,
  columns,
  rowKey,
}: {
  search: Search;
  query: UseQueryResult<D, unknown>;
  select: (data: D) => { rows: T[]; count: number };
  caption: string;
  columns: Column<T>[];
  rowKey: (row: T) => string;
}) {
  return (
    <>
      {search.fields.length > 0 && <Filters search={search} />}
      <section className="card" aria-busy={query.isFetching}>
        <Loaded query={query}>
          {(data) => {
            const { rows, count } = select(data);
            return (
              <>
                <DataTable caption={caption} columns={columns} rows={rows} rowKey={rowKey} />
                <Pager search={search} count={count} />
              </>
            );
          }}
        </Loaded>
      </section>
    </>
  );
}
