import type { Platform } from '../../../platform/platform.js';
import type { PaymentProvider } from './payment-provider.js';
import { createSandboxProvider, sandboxSecret } from './sandbox-provider.js';
import { stripeProviderFromConfig } from './stripe-provider.js';

/**
 * The provider PAYMENT_PROVIDER names (config.payments.provider): the built-in sandbox, or Stripe
 * Checkout (payments/stripe-provider.ts, same interface).
 */
export function createPaymentProvider(platform: Platform): PaymentProvider {
  const { config, keys, clock } = platform;
  switch (config.payments.provider) {
    case 'sandbox':
      return createSandboxProvider({
        secret: sandboxSecret(keys.key('payment-sandbox')),
        publicBaseUrl: config.publicBaseUrl,
        clock,
      });
    case 'stripe':
      return stripeProviderFromConfig(config);
  }
}
