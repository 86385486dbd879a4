/** Statements per prune at most: a backlog is worked off over several maintenance runs, never in one long one. */
const MAX_BATCHES = 20;

/**
 * Deletes old rows `batch` at a time, each batch its own short statement (and transaction), so
 * pruning never holds many locks or a long transaction; stops at the first short batch or after
 * MAX_BATCHES. Returns how many rows went.
 */
export async function deleteInBatches(batch: number, deleteUpTo: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const deleted = await deleteUpTo(batch);
    total += deleted;
    if (deleted < batch) break;
  }
  return total;
}
