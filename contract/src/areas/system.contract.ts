import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { errors } from '../common/envelope.schemas.js';
import { named } from '../common/openapi-meta.js';
import { publicRoute } from '../common/route-meta.js';
import { JwksSchema } from './auth.contract.js';

const c = initContract();

const StatusSchema = named('HealthStatus', z.object({ status: z.literal('ok') }));

/** Operations outside /api/v1. */
export const systemContract = c.router({
  health: {
    method: 'GET',
    path: '/healthz',
    summary: 'Liveness',
    description: '200 while the process runs.',
    metadata: publicRoute,
    responses: { 200: StatusSchema },
  },
  ready: {
    method: 'GET',
    path: '/readyz',
    summary: 'Readiness',
    description: '200 when the database answers, else 503.',
    metadata: publicRoute,
    responses: { 200: StatusSchema, ...errors(503) },
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
