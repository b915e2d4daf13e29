/** Examples of the frontend area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { TRACK_ID, UPDATED, USER_ID } from '../../common/common.examples.js';

export const FRONTEND_EXAMPLES: Record<string, unknown> = {
  FrontendLogRequest: {
    level: 'error',
    message: 'Playback failed: MEDIA_ERR_NETWORK',
    timestamp: UPDATED,
    context: { page: '/tracks/night-drive', build: '4.2.0' },
    data: { track_id: TRACK_ID },
  },
  FrontendLogReceipt: { received: true },
  ValidateRequest: { type: 'CreatePlaylistRequest', data: [123, 34, 116, 105, 116, 108, 101, 34, 58, 34, 34, 125] },
  ValidateResponse: {
    valid: false,
    message: 'title must be at least 1 character',
    errors: [{ field: 'title', message: 'title must be at least 1 character', value: '' }],
  },
  IceServer: { urls: ['stun:stun.example.org:3478'] },
  WebRtcConfig: {
    iceServers: [
      { urls: ['stun:stun.example.org:3478'] },
      {
        urls: ['turn:turn.example.org:3478?transport=udp'],
        username: '1795778900:' + USER_ID,
        credential: 'p7GdLz0v6l0vJ1r8sXl2n0Qm9kA=',
      },
    ],
  },
};
