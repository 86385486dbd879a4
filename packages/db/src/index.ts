export { openDatabase, type ChannelListener, type Database, type DatabaseOptions, type Db } from './database';
export { Prisma } from './generated/prisma/client';
export { statementsOf, type SqlStatements } from './statements';
export type * from './generated/prisma/client';
export type { Presence } from './presence';
