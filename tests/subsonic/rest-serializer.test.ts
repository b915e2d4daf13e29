import { describe, expect, it } from 'vitest';
import { childText, toJson, toXml } from '../../server/src/modules/subsonic/rest-serializer.js';
import { redactUrl } from '../../server/src/platform/logging/logger.js';
import { subsonicXmlErrors } from '../support/subsonic-xsd.js';

// One reply tree, two formats: the rules of rest-serializer.ts, and the schema check the other tests
// lean on, shown to refuse what the XSD does not allow.
const ROOT = { status: 'ok', version: '1.16.1', type: 'riff', serverVersion: '1.2.0', openSubsonic: true } as const;

describe('the Subsonic serializer', () => {
  it('scalars are attributes, nodes and arrays child elements, `value` the text; JSON keeps the tree', () => {
    const tree = {
      ...ROOT,
      genres: { genre: [{ songCount: 2, albumCount: 1, value: 'Jazz & Soul' }] },
    };
    expect(toXml(tree)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><subsonic-response xmlns="http://subsonic.org/restapi" status="ok" version="1.16.1" type="riff" serverVersion="1.2.0" openSubsonic="true">' +
        '<genres><genre songCount="2" albumCount="1">Jazz &amp; Soul</genre></genres></subsonic-response>',
    );
    expect(JSON.parse(toJson(tree))).toEqual({ 'subsonic-response': tree });
  });

  it('arrays of scalars and childText become elements with text; undefined is left out', () => {
    const tree = {
      ...ROOT,
      artistInfo2: { biography: childText('Born <here>'), musicBrainzId: undefined, similarArtist: [] },
    };
    expect(toXml(tree)).toContain('<artistInfo2><biography>Born &lt;here&gt;</biography></artistInfo2>');
    expect(JSON.parse(toJson(tree))['subsonic-response'].artistInfo2).toEqual({
      biography: 'Born <here>',
      similarArtist: [],
    });
    expect(toXml({ ...ROOT, user: { username: 'a', folder: [1, 2] } })).toContain(
      '<user username="a"><folder>1</folder><folder>2</folder></user>',
    );
  });

  it('escapes attributes and drops characters XML cannot hold', () => {
    const xml = toXml({ ...ROOT, error: { code: 0, message: 'a "quoted" <b> & \u0001 line\nbreak' } });
    expect(xml).toContain('message="a &quot;quoted&quot; &lt;b&gt; &amp;  line&#10;break"');
  });

  it('the schema check refuses replies the XSD does not allow', async () => {
    expect(await subsonicXmlErrors(toXml({ ...ROOT, license: { valid: true } }))).toEqual([]);
    // a required attribute missing, an OpenSubsonic one missing, an element Subsonic does not know
    expect(await subsonicXmlErrors(toXml({ ...ROOT, license: { email: 'a@b.c' } }))).not.toEqual([]);
    const { openSubsonic: _dropped, ...plain } = ROOT;
    expect(await subsonicXmlErrors(toXml(plain))).not.toEqual([]);
    expect(await subsonicXmlErrors(toXml({ ...ROOT, somethingElse: { a: 1 } }))).not.toEqual([]);
  });
});

describe('Subsonic credentials in request logs', () => {
  it('p, t and apiKey in a /rest/ URL are redacted from the log line; the rest stays readable', () => {
    expect(redactUrl('/rest/ping.view?u=mira&p=enc:736573616d65&v=1.16.1&c=DSub')).toBe(
      '/rest/ping.view?u=mira&p=[redacted]&v=1.16.1&c=DSub',
    );
    expect(redactUrl('/rest/ping?u=mira&t=26719a1196d2a940705a59634eb18eab&s=c19b2d&f=json')).toBe(
      '/rest/ping?u=mira&t=[redacted]&s=c19b2d&f=json',
    );
    expect(redactUrl('/rest/getUser?apiKey=riff_abc&username=mira')).toBe(
      '/rest/getUser?apiKey=[redacted]&username=mira',
    );
  });
});
