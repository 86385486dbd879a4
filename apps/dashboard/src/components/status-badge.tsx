const GOOD = new Set(['SUCCESS', 'AUTHORISE']);
const BAD = new Set(['FAILED', 'AUTHORISE_CANCELLED']);

/** The status of a charge or a batch, coloured by how it ended (the text carries the meaning too). */
export function StatusBadge({ status }: { status: string }) {
  const tone = GOOD.has(status) ? ' good' : BAD.has(status) ? ' bad' : '';
  return <span className={`badge${tone}`}>{status.replaceAll('_', ' ')}</span>;
}
