/**
 * Runs `work` on each item, at most `limit` at a time, in order; starts no more once `stop()` is
 * true. `work` handles its own errors.
 */
export async function atOnce<T>(items: T[], limit: number, work: (item: T, index: number) => Promise<void>, stop: () => boolean) {
  let next = 0;
  const lane = async () => {
    while (next < items.length && !stop()) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
