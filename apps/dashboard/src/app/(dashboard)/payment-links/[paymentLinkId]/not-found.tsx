import { NotFound } from '../../../../components/not-found';

export default function PaymentLinkNotFound() {
  return <NotFound thing="payment link" list={{ href: '/payment-links', name: 'All payment links' }} />;
}
