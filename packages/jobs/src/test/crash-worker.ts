// Child process of crash.test.ts: works the "settle" queue of the database at argv[2], holding the
// transaction of every job marked `stall` open until the test kills this process.
import { openDatabase } from '@gateway/db';
import { startWorker } from '../worker';
import { effectHandler, realClock } from './support';

const database = await openDatabase({ url: process.argv[2]!, poolSize: 4 });
startWorker({
  db: database.prisma,
  clock: realClock,
  logger: console,
  handlers: { settle: effectHandler(database.prisma, 'crashed', (payload) => ((payload as { stall: boolean }).stall ? 4_000 : 0)) },
  concurrency: 2,
  // Long enough that a quick job finishes within its lease on a loaded machine (at 500 ms one was
  // claimed again in CI: its effect once, but two runs); the test's restarted worker waits it out.
  leaseMs: 1_500,
  pollMs: 20,
});
