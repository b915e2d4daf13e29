/**
 * One realistic example per named schema of openapi.json (components.schemas), written as the JSON
 * on the wire. They are what /docs shows and what `prism mock` answers, so a frontend can be built
 * against them: one account, one public track, lists whose pagination matches their items. Each area
 * keeps its examples beside its schemas (areas/<area>/<area>.examples.ts) and builds on the ids and
 * objects of the areas it shows; openapi-document.ts gathers them.
 * tests/contract/examples.test.ts parses each with its zod schema and requires one per component.
 */
export const USER_ID = '0b6f3c2e-8d4a-4f1e-9c7b-2a5d6e8f1a3b';

export const OTHER_USER_ID = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

export const TRACK_ID = '5f2b9d4c-1e7a-4b3c-8d6f-9a0e2c4b6d8f';

export const CREATED = '2026-11-20T09:30:00.000Z';

export const UPDATED = '2026-11-21T10:00:00.000Z';

export const EXPIRES = '2026-11-22T10:00:00.000Z';

/** A first page holding every item: total and total_pages agree with the list. */
export const onePage = (items: number) => ({ page: 1, limit: 20, total: items, total_pages: items === 0 ? 0 : 1 });

export const password = 'correct-horse-battery-staple';

export const COMMON_EXAMPLES: Record<string, unknown> = {
  Message: { message: 'Done.' },
  ErrorCode: 'VALIDATION_FAILED',
  ValidationIssue: { field: 'email', message: 'must be an email address', value: 'mira@' },
  ErrorBody: {
    code: 'VALIDATION_FAILED',
    message: 'The request is not valid',
    details: [{ field: 'email', message: 'must be an email address', value: 'mira@' }],
    request_id: '3f9a7c1e-5b2d-4e8f-a6c0-1d9b7e5f3a2c',
  },
  ErrorEnvelope: {
    success: false,
    error: {
      code: 'VALIDATION_FAILED',
      message: 'The request is not valid',
      details: [{ field: 'email', message: 'must be an email address', value: 'mira@' }],
      request_id: '3f9a7c1e-5b2d-4e8f-a6c0-1d9b7e5f3a2c',
    },
  },
  Pagination: onePage(1),
};
