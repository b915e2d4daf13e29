/** Examples of the media area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { CREATED, UPDATED } from '../../common/common.examples.js';

const trackVersion = {
  id: '8e7d6c5b-4a3f-4e2d-9c1b-0a9f8e7d6c5b',
  version_number: 2,
  format: 'flac',
  duration: 242,
  file_size: 28_311_552,
  md5: '9e107d9d372bb6826bd81d3542a419d6',
  created_at: UPDATED,
  is_current: true,
} as const;

export const MEDIA_EXAMPLES: Record<string, unknown> = {
  MediaStatus: {
    progress: 62,
    status: 'completed',
    stream_status: 'processing',
    status_message: null,
    waveform_ready: true,
  },
  TrackVersion: trackVersion,
  TrackVersionsReply: {
    versions: [
      trackVersion,
      {
        ...trackVersion,
        id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
        version_number: 1,
        format: 'wav',
        duration: 241,
        file_size: 42_508_844,
        md5: '0cc175b9c0f1b6a831c399e269772661',
        created_at: CREATED,
        is_current: false,
      },
    ],
  },
  Waveform: {
    version: 2,
    channels: 1,
    sample_rate: 44100,
    samples_per_pixel: 5880,
    bits: 8,
    length: 4,
    data: [-12, 14, -87, 91, -102, 99, -31, 28],
  },
  HlsCallbackRequest: { status: 'error', message: 'The source file is truncated after 2:41' },
};
