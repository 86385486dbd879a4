import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * The extensions the migrations create (CREATE EXTENSION), which PGlite offers only when given
 * them: pg_trgm, whose trigram indexes keep the charge search's contains matches fast.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };
