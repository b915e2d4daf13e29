/** Examples of the developer area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { CREATED, UPDATED } from '../../common/common.examples.js';

export const apiKey = {
  id: '5d2e8a41-7c3b-4f9e-a16d-0b8c9e2f4a71',
  name: 'Release bot',
  prefix: 'riff_7Kq2Xw9',
  scopes: ['read', 'write'],
  created_at: CREATED,
  last_used_at: UPDATED,
  expires_at: '2027-11-20T09:30:00.000Z',
};

export const DEVELOPER_EXAMPLES: Record<string, unknown> = {
  ApiKeyScope: 'read',
  ApiKey: apiKey,
  ApiKeyList: { api_keys: [apiKey] },
  CreateApiKeyRequest: { name: 'Release bot', scopes: ['read', 'write'], expires_at: '2027-11-20T09:30:00.000Z' },
  CreatedApiKey: { api_key: apiKey, key: 'riff_7Kq2Xw9LmP4sT8vB3nD6fH1jR5yU0cA2eG7iM9oQ' },
};
