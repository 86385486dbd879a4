'use client';

import { useState, type ReactNode } from 'react';

/** Copies text to the clipboard and says so (politely announced). */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: ReactNode }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="secondary"
      onClick={async () => {
        await navigator.clipboard.writeText(text);
        setCopied(true);
      }}
    >
      {label}
      <span role="status">{copied ? ' — copied' : ''}</span>
    </button>
  );
}

/** "Copy" naming what it copies for screen readers, where several such buttons share a page. */
export function CopyLabel({ what, reference }: { what: string; reference: string }) {
  return (
    <>
      Copy
      <span className="visually-hidden">
        {' '}
        {what} {reference}
      </span>
    </>
  );
}
