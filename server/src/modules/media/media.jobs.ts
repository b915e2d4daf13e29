declare module '../../platform/jobs/job-map.js' {
  interface JobMap {
    /** Transcodes a track's current audio to HLS; `runId` names the audio's run, so a stale job stops. */
    'media.hls': MediaJobData;
    /** Draws a track's waveform from its current audio, for the same run. */
    'media.waveform': MediaJobData;
  }
}

/** A media job's payload: the track, and the run of its audio that queued the job. */
export interface MediaJobData {
  trackId: string;
  runId: string;
}
