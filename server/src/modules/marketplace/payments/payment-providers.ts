import type { KeyRing } from '../../../platform/auth/key-ring.js';
import type { Clock } from '../../../platform/clock.js';
import type { Config } from '../../../platform/config/config.js';
import type { PaymentProvider } from './payment-provider.js';
import { createSandboxProvider, sandboxSecret } from './sandbox-provider.js';
import { stripeProviderFromConfig } from './stripe-provider.js';

/**
 * The provider PAYMENT_PROVIDER names (config.payments.provider): the built-in sandbox, or Stripe
 * Checkout (payments/stripe-provider.ts, same interface).
 */
export function createPaymentProvider({
  config,
  keys,
  clock,
}: {
  config: Config;
  keys: KeyRing;
  clock: Clock;
}): PaymentProvider {
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
