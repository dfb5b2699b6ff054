import { useShopInfo } from '../shop-info.ts';

const MODE_WORDS = {
  simulator: 'Payments: TEST simulator (no money is taken)',
  'stripe-test': 'Payments: Stripe test mode',
  'stripe-live': 'Payments: Stripe LIVE (real money)',
} as const;

/** The panel's header says which payment mode runs, so nobody refunds "test" money that was real. */
export function PaymentModeBadge() {
  const info = useShopInfo();
  if (!info) return null;
  return (
    <p className={`admin-mode admin-mode-${info.paymentMode}`} data-testid="payment-mode">
      {MODE_WORDS[info.paymentMode]}
    </p>
  );
}
