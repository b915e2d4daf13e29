/**
 * The same first steps with the SDK @hey-api/openapi-ts generated from openapi.json.
 */
import { createClient, createConfig } from './hey-api/client/index.js';
import { authLogin, authRegister, authVerifyEmail, tracksGet, tracksStream, tracksUpload } from './hey-api/sdk.gen.js';
import type { ScriptInput, ScriptReport } from './script-types.js';

export async function run({ baseUrl, account, audio, verificationToken }: ScriptInput): Promise<ScriptReport> {
  const client = createClient(createConfig({ baseUrl }));

  const registered = await authRegister({
    client,
    body: {
      email: account.email,
      username: account.username,
      password: account.password,
      password_confirmation: account.password,
    },
  });
  if (!registered.data) throw new Error(`register answered ${registered.response.status}`);

  const verified = await authVerifyEmail({
    client,
    headers: { 'x-verify-token': await verificationToken(account.email) },
  });
  if (!verified.data) throw new Error(`verify-email answered ${verified.response.status}`);

  const login = await authLogin({ client, body: { email: account.email, password: account.password } });
  if (!login.data) throw new Error(`login answered ${login.response.status}: ${login.error?.error.code}`);
  // @ts-expect-error until requires_2fa is known to be false, token may be absent
  void login.data.token.access_token;
  if (login.data.requires_2fa) throw new Error('a new account has no 2FA');
  const accessToken = login.data.token.access_token;
  // Only the bearer scheme gets the access token (an API key is another credential).
  client.setConfig({ auth: (auth) => (auth.scheme === 'bearer' ? accessToken : undefined) });

  const uploaded = await tracksUpload({ client, body: { file: audio, title: 'Night Drive', is_public: 'false' } });
  if (!uploaded.data) throw new Error(`upload answered ${uploaded.response.status}: ${uploaded.error?.error.message}`);
  const trackId = uploaded.data.data.track.id;

  const read = await tracksGet({ client, path: { id: trackId } });
  if (!read.data) throw new Error(`read answered ${read.response.status}`);
  const { track } = read.data.data;

  const range = await tracksStream({
    client,
    path: { id: trackId },
    headers: { range: 'bytes=0-99' },
    parseAs: 'arrayBuffer',
  });
  if (range.error) throw new Error(`stream answered ${range.response.status}`);

  const missing = await tracksGet({ client, path: { id: '00000000-0000-4000-8000-000000000000' } });
  if (!missing.error) throw new Error('a track that does not exist was found');
  // @ts-expect-error code is the enum of stable codes: comparing it with one that does not exist does not compile
  if (missing.error.error.code === 'TRACK_MISSING') throw new Error('no such code');
  if (missing.error.error.code !== 'NOT_FOUND') throw new Error(`unexpected code ${missing.error.error.code}`);

  return {
    userId: registered.data.user.id,
    trackId,
    title: track.title,
    isPublic: track.is_public,
    rangeStatus: range.response.status,
    rangeBytes: range.data instanceof ArrayBuffer ? range.data.byteLength : 0,
    contentRange: range.response.headers.get('content-range'),
    errorStatus: missing.response.status,
    errorCode: missing.error.error.code,
  };
}
