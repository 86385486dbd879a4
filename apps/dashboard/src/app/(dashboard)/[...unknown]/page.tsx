import { notFound } from 'next/navigation';

/** Any address no page has: the dashboard's not-found page (HTTP 404), inside the dashboard, for staff only. */
export default function UnknownPage() {
  notFound();
}
