import { useEffect, useState } from 'react';

/**
 * False until React runs in the browser. Forms keep their submit button disabled until then: a
 * form submitted before hydration would go to the server natively, with what was typed in the URL.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
