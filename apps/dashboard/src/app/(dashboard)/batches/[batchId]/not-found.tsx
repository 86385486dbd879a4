import { NotFound } from '../../../../components/not-found';

export default function BatchNotFound() {
  return <NotFound thing="batch" list={{ href: '/batches', name: 'All batches' }} />;
}
