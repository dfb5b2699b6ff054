import type { AppContext } from '../../context.ts';
import type { PaymentProvider } from '../payment-provider.ts';
import { SimulatorProvider } from './simulator.ts';
import { StripeProvider } from './stripe.ts';

/** The provider the configuration chose (config.ts paymentSettings: never the simulator by surprise). */
export function openPaymentProvider(ctx: AppContext): PaymentProvider {
  return ctx.config.paymentProvider === 'stripe' && ctx.config.stripe
    ? new StripeProvider(ctx.config.stripe)
    : new SimulatorProvider(ctx.db, ctx.config.publicUrl, ctx.now);
}
