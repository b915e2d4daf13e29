import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import { policyLimiter } from '../../platform/rate-limit/limit-policies.js';
import { FrontendLogService } from './frontend-log.service.js';
import { frontendRoutes } from './frontend.routes.js';
import { RequestValidatorService } from './request-validator.service.js';
import { WebRtcConfigService } from './webrtc-config.service.js';

/** What a frontend needs beside the areas: its log lines, validation before sending, WebRTC ICE servers. */
export function createFrontendModule(platform: Platform): RiffModule {
  return {
    name: 'frontend',
    routes: {
      frontend: frontendRoutes({
        logs: new FrontendLogService({ perAddress: policyLimiter(platform.limits, 'frontend-logs') }),
        validator: new RequestValidatorService(),
        webrtc: new WebRtcConfigService({ settings: platform.config.webrtc, clock: platform.clock }),
      }),
    },
  };
}
