/**
 * Checkout.com's sandbox test cards (checkout.com/docs/developer-resources/testing/test-cards):
 * cards that approve, cards that decline with a given response code, and a card whose issuer asks
 * for 3-D Secure. The fake answers each as the sandbox documents; any other number is refused as
 * the sandbox refuses real cards (card_number_invalid).
 */
export interface CheckoutTestCard {
  number: string;
  scheme: string;
  cvv: string;
  /** The response code a payment with the card answers (10000: approved). */
  responseCode: string;
  /** The issuer authenticates the payer with a challenge when 3-D Secure is enabled, and asks for it otherwise (20154). */
  threeDSecure?: boolean;
}

export const CHECKOUT_TEST_CARDS: readonly CheckoutTestCard[] = [
  { number: '4242424242424242', scheme: 'Visa', cvv: '100', responseCode: '10000' },
  { number: '5436031030606378', scheme: 'Mastercard', cvv: '257', responseCode: '10000' },
  { number: '345678901234564', scheme: 'Amex', cvv: '1051', responseCode: '10000' },
  { number: '4543474002249996', scheme: 'Visa', cvv: '956', responseCode: '10000', threeDSecure: true },
  { number: '4544249167673670', scheme: 'Visa', cvv: '100', responseCode: '20051' },
  { number: '4111111111111129', scheme: 'Visa', cvv: '100', responseCode: '20001' },
  { number: '4024007103573027', scheme: 'Visa', cvv: '100', responseCode: '20012' },
  { number: '4724117215951699', scheme: 'Visa', cvv: '100', responseCode: '20054' },
  { number: '4897453568485113', scheme: 'Visa', cvv: '100', responseCode: '20059' },
  { number: '4818924250131070', scheme: 'Visa', cvv: '100', responseCode: '20062' },
  { number: '4734868958733862', scheme: 'Visa', cvv: '100', responseCode: '200N7' },
];

/** The challenge page's outcomes (the sandbox's page asks for a password; the fake's has two buttons). */
export type ChallengeOutcome = 'pass' | 'fail';
