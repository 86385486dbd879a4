import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseLedgerJson, stringify } from './json.js';

/**
 * The simulated acquirer's state as named tables of JSON records, optionally kept in a file.
 *
 * The file holds one JSON line per change, `[table, id, record]` for a write and `[table, id]` for
 * a removal, appended (write-through, before the acquirer answers) as the change happens. Opening
 * replays it and rewrites it compacted to one line per live record; a line cut short by a crash is
 * dropped. Callers never put card numbers or CVCs in a record.
 */
export class Journal {
  readonly #tables = new Map<string, Map<string, unknown>>();
  readonly #fd: number | undefined;
  #closed = false;

  /** Without a file, the state lives in memory only. */
  constructor(file?: string) {
    if (file === undefined) return;
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    for (const line of text.slice(0, text.lastIndexOf('\n') + 1).split('\n')) {
      if (line === '') continue;
      const [name, id, record] = parseLedgerJson(line) as [string, string, unknown?];
      const rows = this.#rows(name);
      if (record === undefined) rows.delete(id);
      else rows.set(id, record);
    }
    const compacted = [...this.#tables].flatMap(([name, rows]) => [...rows].map(([id, record]) => `${stringify([name, id, record])}\n`));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, compacted.join(''), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
    this.#fd = openSync(file, 'a');
  }

  /** The table `name`, with the records the file held. */
  table<T>(name: string): Table<T> {
    return new Table(this.#rows(name) as Map<string, T>, (change) => {
      // After close the descriptor's number may name another file: never write to it.
      if (this.#closed) throw new Error('the simulator is closed');
      if (this.#fd !== undefined) writeSync(this.#fd, `${stringify([name, ...change])}\n`);
    });
  }

  close(): void {
    if (this.#fd !== undefined && !this.#closed) closeSync(this.#fd);
    this.#closed = true;
  }

  #rows(name: string): Map<string, unknown> {
    let rows = this.#tables.get(name);
    if (!rows) this.#tables.set(name, (rows = new Map()));
    return rows;
  }
}

/** Records by id, oldest first. A record changed in place must be `put` again to be kept. */
export class Table<T> {
  readonly #rows: Map<string, T>;
  readonly #write: (change: [id: string, record?: T]) => void;

  constructor(rows: Map<string, T>, write: (change: [id: string, record?: T]) => void) {
    this.#rows = rows;
    this.#write = write;
  }

  /** Read-only: change records through `put` and `drop`. */
  get rows(): ReadonlyMap<string, T> {
    return this.#rows;
  }

  get(id: string): T | undefined {
    return this.#rows.get(id);
  }

  put(id: string, record: T): void {
    this.#rows.set(id, record);
    this.#write([id, record]);
  }

  drop(id: string): void {
    if (this.#rows.delete(id)) this.#write([id]);
  }

  /** Drops records from the oldest on while `stale` holds: forgetting in time order costs no scan. */
  dropOldest(stale: (record: T) => boolean): void {
    for (const [id, record] of this.#rows) {
      if (!stale(record)) return;
      this.drop(id);
    }
  }
}
