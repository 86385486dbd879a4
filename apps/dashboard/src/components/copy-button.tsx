'use client';

import { useState } from 'react';

/** Copies text to the clipboard and says so (politely announced). */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
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
