import { describe, expect, it } from 'vitest';
import { signedInUser } from '../support/accounts.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();

// Found by the long fuzz run: a form part without a name crashed the process (an uncaught TypeError in the parser's callback).
describe('a multipart part without a name', () => {
  it('is 400 VALIDATION_FAILED on both upload routes, and the service keeps answering', async () => {
    const user = await signedInUser(suite.server);
    const boundary = 'riffboundary';
    const body = `--${boundary}\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n--${boundary}--\r\n`;
    for (const path of ['/tracks', '/tracks/chunk']) {
      const reply = await suite.http.post(path, {
        token: user.accessToken,
        rawBody: body,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await suite.http.get('/users')).status).toBe(200);
  });
});
