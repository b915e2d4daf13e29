import { createHmac } from 'node:crypto';
import type { WebRtcConfig } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { Config } from '../../platform/config/config.js';

type WebRtcSettings = Config['webrtc'];

export interface WebRtcConfigServiceDeps {
  /** STUN and TURN servers, and how TURN credentials are made. */
  settings: WebRtcSettings;
  clock: Clock;
}

/**
 * The ICE servers a client hands to RTCPeerConnection. With TURN_SECRET the TURN credentials are
 * coturn's time-limited ones (use-auth-secret), so no long-lived TURN password reaches a browser.
 */
export class WebRtcConfigService {
  constructor(private readonly deps: WebRtcConfigServiceDeps) {}

  forCaller(actor: Actor): WebRtcConfig {
    const { stunUrls, turnUrls } = this.deps.settings;
    const iceServers: WebRtcConfig['iceServers'] = [];
    if (stunUrls.length > 0) iceServers.push({ urls: stunUrls });
    const turn = turnUrls.length > 0 ? this.turnCredentials(actor) : undefined;
    if (turn) iceServers.push({ urls: turnUrls, ...turn });
    return { iceServers };
  }

  private turnCredentials(actor: Actor): { username: string; credential: string } | undefined {
    const { turnSecret, turnTtlSeconds, turnUsername, turnCredential } = this.deps.settings;
    if (turnSecret) {
      const expiry = Math.floor(this.deps.clock.now().getTime() / 1000) + turnTtlSeconds;
      const username = `${expiry}:${actor.kind === 'user' ? actor.id : 'anon'}`;
      return { username, credential: createHmac('sha1', turnSecret).update(username).digest('base64') };
    }
    if (turnUsername && turnCredential) return { username: turnUsername, credential: turnCredential };
    return undefined;
  }
}
