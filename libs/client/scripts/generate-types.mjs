/* global process, console, fetch */
/**
 * Writes src/generated/openapi.ts: the TypeScript types of the OpenAPI document the read API
 * serves, made with openapi-typescript from the built API's own document function. Runs in
 * `pnpm build` after the API is compiled and before the client is, so the client's types are
 * always those of the document of the same checkout. Also marks dist/esm as ES modules.
 *
 * `node generate-types.mjs --check <API base URL>` instead generates the types from the document
 * that running API serves and exits non-zero unless they equal the built ones.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const here = dirname(fileURLToPath(import.meta.url));
const client = join(here, '..');
const require = createRequire(import.meta.url);
const GENERATED = join(client, 'src', 'generated', 'openapi.ts');

/** The document's types as TypeScript source, with the header every generated file carries. */
async function typesOf(document) {
  const { servers: _servers, ...portable } = document;
  const source = astToString(
    await openapiTS(portable, { alphabetize: true, emptyObjectsUnknown: true }),
  );
  return `/* Generated from the read API's OpenAPI document by libs/client/scripts/generate-types.mjs. Do not edit. */\n/* eslint-disable */\n${source}`;
}

function writeIfChanged(file, text) {
  let before = null;
  try {
    before = readFileSync(file, 'utf8');
  } catch {
    /* first run */
  }
  if (before === text) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

async function check(baseUrl) {
  const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/api/v1/openapi.json`);
  if (!res.ok) throw new Error(`GET /api/v1/openapi.json answered ${res.status}`);
  const served = await typesOf(await res.json());
  const built = readFileSync(GENERATED, 'utf8');
  if (served !== built) {
    throw new Error(
      'the types built into the client differ from those of the document the API serves; run pnpm build',
    );
  }
  console.log(`the client's types match the document served at ${baseUrl}`);
}

async function main() {
  const built = join(client, '..', '..', 'apps', 'api', 'dist', 'openapi', 'openapi.document.js');
  const { openApiDocument } = require(built);
  writeIfChanged(GENERATED, await typesOf(openApiDocument('http://127.0.0.1:3000')));
  writeIfChanged(join(client, 'dist', 'esm', 'package.json'), '{ "type": "module" }\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const checkAt = process.argv.indexOf('--check');
  (checkAt > 0 ? check(process.argv[checkAt + 1] ?? '') : main()).catch((err) => {
    console.error(`generate-types: ${err.message}`);
    process.exit(1);
  });
}
