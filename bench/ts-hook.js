/* eslint-disable @typescript-eslint/no-require-imports */
/* global require, __dirname */
/**
 * `node -r ./bench/ts-hook.js bench/<name>.ts`: runs a TypeScript bench as is. Transpiles .ts with
 * @swc/core (as Jest does) and resolves `@graph-history/<lib>` to the built workspace package,
 * which the root package does not depend on, and `@graph-history/<app>/<path>` to the app's source.
 */
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '..');
const packageDir = (name) =>
  path.join(root, name === 'migrations' ? 'db' : path.join('libs', name));
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const lib = /^@graph-history\/([a-z-]+)$/.exec(request);
  // an app's source file, as Jest maps it (`@graph-history/cli/fleet/free-port`)
  const app = /^@graph-history\/(api|ingestor|cli)\/(.+)$/.exec(request);
  const target = lib
    ? packageDir(lib[1])
    : app
      ? path.join(root, 'apps', app[1], 'src', app[2])
      : request;
  return resolve.call(this, target, parent, ...rest);
};

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
