import { NotFound } from '../../../../components/not-found';

export default function ProviderNotFound() {
  return <NotFound thing="provider" list={{ href: '/providers', name: 'All providers' }} />;
}
