import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { validateXML } from 'xmllint-wasm';

/** The Subsonic 1.16.1 schema with OpenSubsonic's additions (the file says which). */
const XSD = readFileSync(path.join(__dirname, '../subsonic/subsonic-rest-api-1.16.1-opensubsonic.xsd'), 'utf8');

/** xmllint's complaints about `xml` against the Subsonic XSD as OpenSubsonic extends it (none: valid). */
export async function subsonicXmlErrors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'reply.xml', contents: xml }],
    schema: [{ fileName: 'subsonic.xsd', contents: XSD }],
  });
  const errors = result.errors.map((error) => error.message);
  return result.valid ? errors : errors.length > 0 ? errors : ['not valid'];
}

/** Fails with xmllint's messages unless `xml` is valid against the Subsonic XSD as OpenSubsonic extends it. */
export async function expectValidSubsonicXml(xml: string): Promise<void> {
  expect(await subsonicXmlErrors(xml), xml).toEqual([]);
}
