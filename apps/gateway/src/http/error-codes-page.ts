import { escapeHtml, type ErrorDefinition } from '@gateway/core';

/** The page error bodies link to (`type`: <publicUrl>/errorcodes#<code>). */
export function errorCodesPage(errors: Readonly<Record<string, ErrorDefinition>>): string {
  const rows = Object.entries(errors)
    .map(
      ([name, e]) =>
        `<tr id="${e.code}"><td>${e.code}</td><td>${escapeHtml(name)}</td><td>${e.http}</td><td>${escapeHtml(e.message)}</td><td>${e.retryable ? 'yes' : 'no'}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error codes</title></head><body>
<h1>Error codes</h1><table><thead><tr><th>Code</th><th>Name</th><th>HTTP</th><th>Message</th><th>Retryable</th></tr></thead>
<tbody>
${rows}
</tbody></table></body></html>`;
}
