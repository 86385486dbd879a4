import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** One committed migration: `<migrationsDir>/<name>/migration.sql`. */
export interface MigrationFile {
  name: string;
  sql: string;
  /** sha256 hex of the file's bytes, as Prisma stores it in `_prisma_migrations.checksum`. */
  checksum: string;
}

export const LOCK_FILE = 'migration_lock.toml';

/** Where the authoring tools read the schema and the history: `prisma/schema.prisma` beside `prisma/migrations`. */
export interface AuthoringPaths {
  schemaPath: string;
  migrationsDir: string;
}

/** Walks up from `startDir` to the first `prisma/migrations` directory. */
export function findMigrationsDir(startDir: string): string {
  for (let dir = startDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'prisma', 'migrations');
    if (existsSync(candidate) && statSync(candidate).isDirectory()) return candidate;
    if (dirname(dir) === dir) throw new Error(`No prisma/migrations directory above ${startDir}`);
  }
}

/** The committed migrations in name order (the order Prisma applies them in). */
export async function readMigrations(migrationsDir: string): Promise<MigrationFile[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Promise.all(
    names.map(async (name) => {
      const path = join(migrationsDir, name, 'migration.sql');
      const bytes = await readFile(path).catch((cause: unknown) => {
        throw new Error(`Migration ${name} has no readable migration.sql (${path})`, { cause });
      });
      return { name, sql: bytes.toString('utf8'), checksum: createHash('sha256').update(bytes).digest('hex') };
    }),
  );
}
