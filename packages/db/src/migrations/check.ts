import type { AuthoringPaths } from './files.js';
import { migrationList, NO_FILTER, readSchema, type SchemaEngine } from './schema-engine.js';

export interface CheckResult {
  inSync: boolean;
  /** The SQL that would take the committed migrations to the schema (empty when in sync). */
  diff: string;
}

/** Compares the schema with what replaying the committed migrations produces. */
export async function checkMigrations(engine: SchemaEngine, paths: AuthoringPaths): Promise<CheckResult> {
  const [schema, history] = await Promise.all([readSchema(paths.schemaPath), migrationList(paths.migrationsDir)]);
  const result = await engine.diff({
    from: { tag: 'migrations', ...history },
    to: { tag: 'schemaDatamodel', files: [schema] },
    script: true,
    exitCode: true,
    filters: NO_FILTER,
  });
  // With exitCode set, the engine answers 2 when the diff is not empty.
  const inSync = result.exitCode === 0;
  return { inSync, diff: inSync ? '' : (result.stdout ?? '') };
}
