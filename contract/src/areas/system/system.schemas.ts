import { z } from 'zod';
import { named } from '../../common/openapi-meta.js';

export const HealthStatusSchema = named('HealthStatus', z.object({ status: z.literal('ok') }));
