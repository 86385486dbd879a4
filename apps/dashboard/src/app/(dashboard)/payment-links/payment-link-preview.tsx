import { CardForm } from '../../../components/card-form';
import { PaymentPage, type PaymentPageLink } from '../../../components/payment-page';

/** The hosted page as payers will see it; inert, so that keyboard users do not wander into its form. */
export function PaymentLinkPreview({
  link,
  callToAction,
  askEmail,
}: {
  link: PaymentPageLink;
  callToAction: 'Pay' | 'Donate';
  askEmail: boolean;
}) {
  return (
    <section className="sticky" aria-labelledby="preview-heading">
      <h2 id="preview-heading">Preview of the payment page</h2>
      <div className="preview" inert>
        <PaymentPage link={link} heading="h2">
          <CardForm callToAction={callToAction} askEmail={askEmail} />
        </PaymentPage>
      </div>
    </section>
  );
}
