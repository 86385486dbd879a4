import type { ReactNode, Ref } from 'react';

/**
 * A live region: errors are announced at once (role=alert), other news politely (role=status).
 * It stays in the page when empty, so that screen readers notice what is put in it. With a `ref`
 * it can take focus (not by Tab), for a form to move focus onto what it has to say.
 */
export function Message({
  kind,
  children,
  ref,
}: {
  kind: 'error' | 'success' | 'warning';
  children?: ReactNode;
  ref?: Ref<HTMLDivElement>;
}) {
  return (
    <div ref={ref} tabIndex={ref ? -1 : undefined} role={kind === 'error' ? 'alert' : 'status'} className={`message ${kind}`}>
      {children}
    </div>
  );
}
