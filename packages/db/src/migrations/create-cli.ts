// pnpm --filter @gateway/db migration:create <name>   write a migration for the schema's changes
// pnpm --filter @gateway/db migration:create --check  exit 1 when schema and migrations disagree (CI)
import { dirname, join, relative } from 'node:path';
import { checkMigrations } from './check.js';
import { createMigration } from './create.js';
import { findMigrationsDir } from './files.js';
import { openSchemaEngine, readSchema } from './schema-engine.js';

const usage = 'usage: migration:create <name> | migration:create --check';
const args = process.argv.slice(2);
const check = args[0] === '--check';
const name = check ? undefined : args[0];
if (args.length !== 1 || (!check && name?.startsWith('-'))) {
  console.error(usage);
  process.exit(2);
}

const migrationsDir = findMigrationsDir(import.meta.dirname);
const paths = { migrationsDir, schemaPath: join(dirname(migrationsDir), 'schema.prisma') };
const show = (path: string) => relative(process.cwd(), path) || '.';

const session = await openSchemaEngine(await readSchema(paths.schemaPath));
let exitCode = 0;
try {
  if (check) {
    const { inSync, diff } = await checkMigrations(session.engine, paths);
    if (inSync) {
      console.log(`${show(paths.schemaPath)} matches ${show(migrationsDir)}.`);
    } else {
      console.error(`${show(paths.schemaPath)} and ${show(migrationsDir)} disagree. Missing migration SQL:\n\n${diff}`);
      console.error('Run `pnpm db:migration <name>` and commit the result.');
      exitCode = 1;
    }
  } else {
    const dir = await createMigration(session.engine, name!, paths);
    console.log(dir ? `Created ${show(join(dir, 'migration.sql'))}` : 'No schema changes: nothing written.');
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  exitCode = 2;
} finally {
  await session.close();
}
// The engine leaves a timer running for ~10 s; don't wait for it.
process.exit(exitCode);
