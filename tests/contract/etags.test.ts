/**
 * ETags as a client meets them: every reply that carries one documents it (openapi.json, on that
 * operation and status), every documented one is sent, and every read that sends one honours
 * If-None-Match with a 304 that the document declares, with the If-None-Match parameter. The walk
 * covers each operation that sends an ETag: the queue, playlists and their tracks, file streams.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { signedInUser } from '../support/accounts.js';
import { silentWav, uploadTrack } from '../support/audio.js';
import { request, type HttpReply } from '../support/http.js';
import { OPENAPI_DOCUMENT } from '../support/prism.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();
interface Operation {
  parameters?: { name: string; in: string }[];
  responses: Record<string, { headers?: Record<string, unknown> }>;
}
const document = JSON.parse(readFileSync(OPENAPI_DOCUMENT, 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};
const PREFIX = '/api/v1';

/** `METHOD /path status` of every reply whose documentation lists ETag. */
function documentedEtags(): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      Object.entries(operation.responses)
        .filter(([status, response]) => Number(status) < 300 && response.headers?.['ETag'] !== undefined)
        .map(([status]) => `${method.toUpperCase()} ${path.slice(PREFIX.length)} ${status}`),
    ),
  );
}

interface Call {
  method: string;
  /** The path template of the operation, under /api/v1. */
  template: string;
  url: string;
  body?: unknown;
}

describe('ETags', () => {
  it('are documented on every reply that sends one, and sent on every reply that documents one', async () => {
    const base = suite.server.baseUrl;
    const user = await signedInUser(suite.server);
    const token = user.accessToken;
    const track = await uploadTrack(base, token, silentWav(16 * 1024), 'tone.wav');
    const created = await request(base, 'POST', `${PREFIX}/playlists`, { token, body: { title: 'Tagged' } });
    const playlist = `/playlists/${created.body.data.playlist.id as string}`;

    const sent: string[] = [];
    const replies = new Map<string, HttpReply>();
    const call = async ({ method, template, url, body }: Call) => {
      const reply = await request(base, method, `${PREFIX}${url}`, { token, body });
      expect(reply.status, `${method} ${url}: ${reply.text}`).toBeLessThan(300);
      if (reply.headers.get('etag')) sent.push(`${method} ${template} ${reply.status}`);
      replies.set(`${method} ${template}`, reply);
      return reply;
    };

    await call({ method: 'GET', template: '/queue', url: '/queue' });
    await call({ method: 'PUT', template: '/queue', url: '/queue', body: { track_ids: [track.id] } });
    const added = await call({
      method: 'POST',
      template: '/queue/items',
      url: '/queue/items',
      body: { track_id: track.id },
    });
    await call({
      method: 'DELETE',
      template: '/queue/items/{id}',
      url: `/queue/items/${added.body.data.item.id as string}`,
    });
    await call({ method: 'DELETE', template: '/queue', url: '/queue' });
    await call({ method: 'GET', template: '/playlists/favoris', url: '/playlists/favoris' });
    await call({ method: 'PUT', template: '/playlists/{id}', url: playlist, body: { title: 'Tagged again' } });
    await call({
      method: 'POST',
      template: '/playlists/{id}/tracks',
      url: `${playlist}/tracks`,
      body: { track_id: track.id },
    });
    await call({
      method: 'PUT',
      template: '/playlists/{id}/tracks/reorder',
      url: `${playlist}/tracks/reorder`,
      body: { track_ids: [track.id] },
    });
    await call({ method: 'GET', template: '/playlists/{id}', url: playlist });
    await call({
      method: 'DELETE',
      template: '/playlists/{id}/tracks/{trackId}',
      url: `${playlist}/tracks/${track.id}`,
    });
    await call({ method: 'GET', template: '/tracks/{id}/stream', url: `/tracks/${track.id}/stream` });
    await call({ method: 'GET', template: '/tracks/{id}/download', url: `/tracks/${track.id}/download` });

    // the 304s and 206s that carry one are checked below and by the streaming tests
    const documented = documentedEtags().filter((reply) => !/ (304|206)$/.test(reply));
    expect(sent.sort()).toEqual(documented.sort());
  });

  it('answer If-None-Match with 304 on every read that sends one, as documented', async () => {
    const base = suite.server.baseUrl;
    const user = await signedInUser(suite.server);
    const token = user.accessToken;
    const track = await uploadTrack(base, token, silentWav(16 * 1024), 'tone.wav');
    const created = await request(base, 'POST', `${PREFIX}/playlists`, { token, body: { title: 'Cached' } });
    const urls: Record<string, string> = {
      '/queue': '/queue',
      '/playlists/favoris': '/playlists/favoris',
      '/playlists/{id}': `/playlists/${created.body.data.playlist.id as string}`,
      '/tracks/{id}/stream': `/tracks/${track.id}/stream`,
      '/tracks/{id}/download': `/tracks/${track.id}/download`,
    };
    const reads = documentedEtags()
      .filter((reply) => reply.startsWith('GET ') && reply.endsWith(' 200'))
      .map((reply) => reply.split(' ')[1]!);
    expect(reads.sort()).toEqual(Object.keys(urls).sort());

    const problems: string[] = [];
    for (const template of reads) {
      const operation = document.paths[`${PREFIX}${template}`]!['get']!;
      if (!operation.responses['304']?.headers?.['ETag']) problems.push(`GET ${template}: no 304 with ETag documented`);
      if (
        !operation.parameters?.some(
          (parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'if-none-match',
        )
      ) {
        problems.push(`GET ${template}: no If-None-Match parameter documented`);
      }
      const first = await request(base, 'GET', `${PREFIX}${urls[template]}`, { token });
      const etag = first.headers.get('etag');
      expect(etag, template).toBeTruthy();
      const again = await request(base, 'GET', `${PREFIX}${urls[template]}`, {
        token,
        headers: { 'if-none-match': etag! },
      });
      if (again.status !== 304)
        problems.push(`GET ${template}: If-None-Match with the current ETag answered ${again.status}`);
      else if (again.headers.get('etag') !== etag)
        problems.push(`GET ${template}: the 304 carries ETag ${again.headers.get('etag')}`);
    }
    expect(problems).toEqual([]);
  });
});
