import type { Platform } from '../../../platform/platform.js';
import type { PaymentProvider } from './payment-provider.js';
import { createSandboxProvider, sandboxSecret } from './sandbox-provider.js';

/**
 * The provider PAYMENT_PROVIDER names (config.payments.provider). The sandbox is built in; the
 * stripe provider plugs in at its case below (payments/stripe-provider.ts, same interface).
 */
export function createPaymentProvider(platform: Platform): PaymentProvider {
  const { config, keys, clock } = platform;
  switch (config.payments.provider) {
    case 'sandbox':
      return createSandboxProvider({ secret: sandboxSecret(keys.key('payment-sandbox')), publicBaseUrl: config.publicBaseUrl, clock });
    case 'stripe':
      // the Stripe provider plugs in here: return createStripeProvider(config.payments.stripe, ...)
      throw new Error('PAYMENT_PROVIDER=stripe: the Stripe provider is not built into this version yet');
  }
}
