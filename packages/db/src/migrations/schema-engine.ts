// Prisma's schema engine compiled to WebAssembly: the native engine cannot be downloaded here.
// Only the authoring tools (create, check) load this; the runtime runner (apply.ts) never does.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import * as glue from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { MigrationList, SchemaContainer, SchemaEngine, SchemaFilter } from '@prisma/schema-engine-wasm/schema_engine_bg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PGLITE_EXTENSIONS } from '../pglite-extensions.js';
import { LOCK_FILE, readMigrations } from './files.js';

export type { SchemaContainer, SchemaEngine };

export const NO_FILTER: SchemaFilter = { externalTables: [], externalEnums: [] };

export interface EngineSession {
  engine: SchemaEngine;
  /** The in-memory database the engine works on (main and shadow at once). */
  db: PGlite;
  close(): Promise<void>;
}

// WebAssembly's types live in lib.dom, which this package does not compile with.
declare const WebAssembly: {
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: Record<string, unknown> } }>;
};

let wasmLoaded: Promise<void> | undefined;

/** Instantiates the wasm module once per process. */
function loadWasm(): Promise<void> {
  wasmLoaded ??= (async () => {
    // The package entry imports the .wasm as an ES module, which Node 20 cannot; wire it by hand.
    const gluePath = createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const bytes = await readFile(join(dirname(gluePath), 'schema_engine_bg.wasm'));
    // The glue reports Rust panics through this global; without it a panic hides its message.
    (globalThis as Record<string, unknown>).PRISMA_WASM_PANIC_REGISTRY ??= new PanicRegistry();
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': glue });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
  })();
  return wasmLoaded;
}

class PanicRegistry {
  message = '';
  get() {
    return this.message;
  }
  set_message(value: string) {
    this.message = `RuntimeError: ${value}`;
  }
}

// This engine replays history into the shadow database as it finds it, so it must be handed an empty one.
const EMPTY_DATABASE = `DO $$
DECLARE s text;
BEGIN
  FOR s IN SELECT nspname FROM pg_namespace WHERE nspname <> 'information_schema' AND nspname NOT LIKE 'pg\\_%' LOOP
    EXECUTE format('DROP SCHEMA %I CASCADE', s);
  END LOOP;
  CREATE SCHEMA public;
END $$`;

/**
 * Opens the engine on a fresh in-memory PGlite, so no server is needed.
 * The same database doubles as shadow database, emptied whenever the engine asks for one: a second
 * PGlite would cost another ~2.5 s of initdb, and nothing needs the main database's content meanwhile.
 */
export async function openSchemaEngine(schema: SchemaContainer): Promise<EngineSession> {
  await loadWasm();
  const db = new PGlite({ extensions: PGLITE_EXTENSIONS });
  const adapter = new PrismaPGlite(db);
  const engine = await glue.SchemaEngine.new(
    // `datamodels: []` panics inside the engine; it only reads the datasource's namespaces from it.
    { datamodels: [[schema.path, schema.content]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory({
      provider: adapter.provider,
      adapterName: adapter.adapterName,
      connect: () => adapter.connect(),
      connectToShadowDb: async () => {
        await db.exec(EMPTY_DATABASE);
        return adapter.connect();
      },
    }),
  );
  return {
    engine,
    db,
    async close() {
      engine.free();
      await db.close();
    },
  };
}

export async function readSchema(schemaPath: string): Promise<SchemaContainer> {
  return { path: schemaPath, content: await readFile(schemaPath, 'utf8') };
}

/** The committed history in the shape the engine reads it. */
export async function migrationList(migrationsDir: string): Promise<MigrationList> {
  return {
    baseDir: migrationsDir,
    lockfile: { path: LOCK_FILE, content: await readFile(join(migrationsDir, LOCK_FILE), 'utf8').catch(() => null) },
    shadowDbInitScript: '',
    migrationDirectories: (await readMigrations(migrationsDir)).map((m) => ({
      path: m.name,
      migrationFile: { path: 'migration.sql', content: { tag: 'ok', value: m.sql } },
    })),
  };
}
