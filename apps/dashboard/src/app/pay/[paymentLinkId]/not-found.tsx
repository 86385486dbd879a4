import { Message } from '../../../components/message';

export default function PaymentLinkNotFound() {
  return (
    <main className="pay-page">
      <article className="pay-card">
        <h1>Payment link not found</h1>
        <Message kind="warning">This payment link does not exist. Check the address, or ask the merchant for a new link.</Message>
      </article>
    </main>
  );
}
