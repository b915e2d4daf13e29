/**
 * Every job's name and payload. The platform and each area add their own by augmenting this
 * interface from the file that defines the jobs (an area's `<area>.jobs.ts`), as EventMap does for
 * events:
 *
 *   declare module '../../platform/jobs/job-map.js' {
 *     interface JobMap { 'media.hls': { trackId: string; runId: string } }
 *   }
 *
 * so a job's name and payload are checked where it is enqueued, where it is handled and where a
 * test runs it. Payloads are JSON objects; a job that takes nothing (a periodic one) has NoData.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface JobMap {}

export type JobName = keyof JobMap & string;

/** The payload of `name`. */
export type JobData<K extends JobName> = JobMap[K];

/** The payload of a job that takes nothing. */
export type NoData = Record<string, never>;

/** What follows the name when a job is run here and now: nothing more for a job that takes nothing. */
export type JobArgs<K extends JobName> = NoData extends JobMap[K] ? [data?: JobMap[K]] : [data: JobMap[K]];

/** Jobs that take nothing: only they can be scheduled to run periodically. */
export type PeriodicJobName = {
  [K in JobName]: NoData extends JobMap[K] ? K : never;
}[JobName];
