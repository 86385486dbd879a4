import { NotFound } from '../../../../components/not-found';

export default function CustomerNotFound() {
  return <NotFound thing="customer" list={{ href: '/customers', name: 'All customers' }} />;
}
