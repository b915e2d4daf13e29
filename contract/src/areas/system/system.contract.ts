import { initContract } from '@ts-rest/core';
import { errors } from '../../common/envelope.schemas.js';
import { publicRoute } from '../../common/route-meta.js';
import { JwksSchema } from '../auth/auth.schemas.js';
import { HealthStatusSchema } from './system.schemas.js';

const c = initContract();

/** Operations outside /api/v1. */
export const systemContract = c.router({
  health: {
    method: 'GET',
    path: '/healthz',
    summary: 'Liveness',
    description: '200 while the process runs.',
    metadata: publicRoute,
    responses: { 200: HealthStatusSchema },
  },
  ready: {
    method: 'GET',
    path: '/readyz',
    summary: 'Readiness',
    description: '200 when the database answers, else 503.',
    metadata: publicRoute,
    responses: { 200: HealthStatusSchema, ...errors(503) },
  },
  jwks: {
    method: 'GET',
    path: '/.well-known/jwks.json',
    summary: 'Public keys for Riff tokens',
    description: 'Other services verify access, stream and chat tokens with these keys.',
    metadata: publicRoute,
    responses: { 200: JwksSchema },
  },
});
