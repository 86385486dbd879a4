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
  leaseMs: 500,
  pollMs: 20,
});
