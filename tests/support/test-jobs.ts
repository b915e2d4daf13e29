// The jobs that tests/platform/jobs.test.ts and its worker fixture declare on queues of their own.
declare module '../../server/src/platform/jobs/job-map.js' {
  interface JobMap {
    [testJob: `test.${string}`]: { n: number };
  }
}

export {};
