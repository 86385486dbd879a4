import type { ReactNode } from 'react';

/**
 * A live region: errors are announced at once (role=alert), other news politely (role=status).
 * It stays in the page when empty, so that screen readers notice what is put in it.
 */
export function Message({ kind, children }: { kind: 'error' | 'success' | 'warning'; children?: ReactNode }) {
  return (
    <div role={kind === 'error' ? 'alert' : 'status'} className={`message ${kind}`}>
      {children}
    </div>
  );
}
