import type { AppContext } from '../../context.ts';
import type { PaymentProvider } from '../payment-provider.ts';
import { SimulatorProvider } from './simulator.ts';
import { StripeProvider } from './stripe.ts';

/** Stripe when STRIPE_SECRET_KEY is set; otherwise the built-in simulator (the embedded default). */
export function openPaymentProvider(ctx: AppContext): PaymentProvider {
  return ctx.config.stripe
    ? new StripeProvider(ctx.config.stripe)
    : new SimulatorProvider(ctx.db, ctx.config.publicUrl, ctx.now);
}
