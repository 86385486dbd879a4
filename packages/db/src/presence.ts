import { randomInt } from 'node:crypto';

/**
 * A process's presence on the database: a number it holds as a session advisory lock for as long
 * as it lives, on its connection of its own (database.ts, which also LISTENs). The server lets a session's locks go the moment its connection ends, which a killed
 * process's does at once (its host's kernel closes the socket); a host that vanishes is noticed by
 * TCP keepalives within about half a minute (KEEPALIVE). So another process can tell, without
 * waiting out a lease, that work a process held is abandoned (services/idempotency.ts).
 */
export interface Presence {
  /** This process's number, while its lock is held (a new one if it was lost and taken by another). */
  readonly number: number;
  /** Whether the process with this number is alive: its lock is held. */
  isPresent(number: number): Promise<boolean>;
}

/** Advisory locks are (class, number) pairs: this class is the presence of gateway processes. */
const PRESENCE_CLASS = 0x9a7e;

/** A presence number: any non-negative 32-bit integer, chosen at random (the lock tells a clash). */
export const newPresenceNumber = () => randomInt(1, 2 ** 31 - 1);

/** Statements a session of its own runs to take and check presence locks. */
export const PRESENCE_SQL = {
  take: 'SELECT pg_try_advisory_lock($1::int, $2::int) AS taken',
  present: `SELECT EXISTS (
      SELECT 1 FROM pg_locks
      WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND classid = $1::int::oid AND objid = $2::int::oid AND objsubid = 2 AND granted
    ) AS present`,
  class: PRESENCE_CLASS,
};

/**
 * Server-side keepalives of the presence session, so that the lock of a host that vanished without
 * closing its connection goes within about 25 s (10 s idle, then 3 probes 5 s apart), not the
 * operating system's default two hours. Ignored on a Unix socket, where there is no network to lose.
 */
export const KEEPALIVE = ['SET tcp_keepalives_idle = 10', 'SET tcp_keepalives_interval = 5', 'SET tcp_keepalives_count = 3'];
