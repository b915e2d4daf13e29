import { contract } from '@riff/contract';
import { actorOf } from '../../platform/access/request-actor.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { ok } from '../../platform/http/envelope.js';
import type { FrontendLogService } from './frontend-log.service.js';
import type { RequestValidatorService } from './request-validator.service.js';
import type { WebRtcConfigService } from './webrtc-config.service.js';

export interface FrontendServices {
  logs: FrontendLogService;
  validator: RequestValidatorService;
  webrtc: WebRtcConfigService;
}

export function frontendRoutes({ logs, validator, webrtc }: FrontendServices) {
  return contractRoutes(contract.frontend, {
    logFrontend: async ({ body, req }) => ({ status: 200, body: ok(await logs.write(actorOf(req), req.log, body)) }),
    validate: async ({ body }) => ({ status: 200, body: validator.validate(body) }),
    webrtcConfig: async ({ req }) => ({ status: 200, body: webrtc.forCaller(actorOf(req)) }),
  });
}
