/**
 * Writes openapi.json from the contract. With --check, fails when the committed file differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderOpenApiDocument } from '@riff/contract/openapi';

const target = fileURLToPath(new URL('../openapi.json', import.meta.url));
const rendered = renderOpenApiDocument();

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    // a missing file differs
  }
  if (committed !== rendered) {
    console.error('openapi.json differs from what the contract generates: run `npm run generate` and commit it.');
    process.exit(1);
  }
  console.log('openapi.json matches the contract.');
} else {
  writeFileSync(target, rendered);
  console.log(`wrote ${target}`);
}
