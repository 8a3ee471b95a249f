/* eslint-disable @typescript-eslint/no-require-imports */
/* global require, __dirname */
/**
 * Lets `node -r ./bench/ingest-ts-hook.js bench/ingest.ts` run the TypeScript bench as is:
 * transpiles .ts with @swc/core (as Jest does); what the bench cannot resolve from the root (it has
 * no runtime dependencies) resolves `@graph-history/<lib>` to the built workspace package and
 * other packages from libs/db or apps/ingestor.
 */
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '..');
const fallbackPaths = [path.join(root, 'libs/db'), path.join(root, 'apps/ingestor')];

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  try {
    return resolve.call(this, request, parent, ...rest);
  } catch (err) {
    if (request.startsWith('.') || path.isAbsolute(request)) throw err;
    const lib = /^@graph-history\/([a-z-]+)$/.exec(request);
    if (lib) return resolve.call(this, path.join(root, 'libs', lib[1]), parent, ...rest);
    return require.resolve(request, { paths: fallbackPaths });
  }
};

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
