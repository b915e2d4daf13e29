/** Examples of the system area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
export const SYSTEM_EXAMPLES: Record<string, unknown> = {
  HealthStatus: { status: 'ok' },
};
