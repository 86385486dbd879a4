import { NotFound } from '../../../../components/not-found';

export default function ChargeNotFound() {
  return <NotFound thing="charge" list={{ href: '/charges', name: 'All charges' }} />;
}
