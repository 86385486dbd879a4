import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyMigrations, pgliteExecutor } from './apply.js';
import { checkMigrations } from './check.js';
import { createMigration } from './create.js';
import { type AuthoringPaths, findMigrationsDir, LOCK_FILE } from './files.js';
import { type EngineSession, migrationList, NO_FILTER, openSchemaEngine, readSchema } from './schema-engine.js';

const committed: AuthoringPaths = { migrationsDir: findMigrationsDir(import.meta.dirname), schemaPath: '' };
committed.schemaPath = join(dirname(committed.migrationsDir), 'schema.prisma');

// One engine for the whole file: loading the wasm and initialising PGlite take ~3 s.
let session: EngineSession;
beforeAll(async () => {
  session = await openSchemaEngine(await readSchema(committed.schemaPath));
}, 30_000);
afterAll(() => session.close());

let scratch: string;
beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'gw-authoring-'));
});
afterEach(() => rm(scratch, { recursive: true, force: true }));

/** A copy of the committed state with `extra` appended to the schema. */
async function changedCopy(extra: string, { withHistory = true } = {}): Promise<AuthoringPaths> {
  const paths = { migrationsDir: join(scratch, 'migrations'), schemaPath: join(scratch, 'schema.prisma') };
  if (withHistory) await cp(committed.migrationsDir, paths.migrationsDir, { recursive: true });
  else await mkdir(paths.migrationsDir);
  await writeFile(paths.schemaPath, (await readFile(committed.schemaPath, 'utf8')) + extra);
  return paths;
}

describe('checkMigrations', () => {
  it('finds the committed migrations in step with prisma/schema.prisma', async () => {
    expect(await checkMigrations(session.engine, committed)).toEqual({ inSync: true, diff: '' });
  });

  it('reports a schema change that has no migration, with its SQL', async () => {
    const paths = await changedCopy(`\nmodel Probe {\n  id String @id\n}\n`);
    const result = await checkMigrations(session.engine, paths);
    expect(result.inSync).toBe(false);
    expect(result.diff).toContain(`CREATE TABLE "Probe"`);
  });
});

describe('createMigration', () => {
  it('writes the migration that brings the history to the schema, and nothing when there is nothing to do', async () => {
    const paths = await changedCopy(`\nmodel Probe {\n  id String @id\n}\n`);
    const dir = await createMigration(session.engine, 'add_probe', paths);
    expect(dir).toMatch(/[/\\]\d{14}_add_probe$/);
    expect(await readFile(join(dir!, 'migration.sql'), 'utf8')).toContain(`CREATE TABLE "Probe"`);
    expect((await checkMigrations(session.engine, paths)).inSync).toBe(true);

    expect(await createMigration(session.engine, 'again', paths)).toBeNull();
    expect((await readdir(paths.migrationsDir)).filter((n) => n.endsWith('_again'))).toEqual([]);
  });

  it('starts a history with its lock file', async () => {
    const paths = await changedCopy('', { withHistory: false });
    const dir = await createMigration(session.engine, 'init', paths);
    expect(dir).not.toBeNull();
    expect(await readFile(join(paths.migrationsDir, LOCK_FILE), 'utf8')).toContain(`provider = "postgresql"`);
  });

  it('rejects names that are not plain identifiers', async () => {
    await expect(createMigration(session.engine, 'add users', committed)).rejects.toThrow('Migration name');
  });
});

describe("the runner's bookkeeping, seen by Prisma's schema engine", () => {
  it('is up to date after the runner applied the history', async () => {
    const history = await migrationList(committed.migrationsDir);
    await session.engine.reset({ filter: NO_FILTER });
    await applyMigrations(pgliteExecutor(session.db), { migrationsDir: committed.migrationsDir });
    expect(
      await session.engine.diagnoseMigrationHistory({
        migrationsList: history,
        filters: NO_FILTER,
        optInToShadowDatabase: false,
      }),
    ).toEqual({ editedMigrationNames: [], failedMigrationNames: [], hasMigrationsTable: true, history: null });
  });

  it('matches what the engine records: the runner then has nothing to apply', async () => {
    const history = await migrationList(committed.migrationsDir);
    await session.engine.reset({ filter: NO_FILTER });
    await session.engine.applyMigrations({ migrationsList: history, filters: NO_FILTER });
    expect(await applyMigrations(pgliteExecutor(session.db), { migrationsDir: committed.migrationsDir })).toEqual({
      applied: [],
    });
  });
});
