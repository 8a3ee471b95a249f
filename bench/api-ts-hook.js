/* eslint-disable @typescript-eslint/no-require-imports */
/* global require, __dirname */
/**
 * `node -r ./bench/api-ts-hook.js bench/api.ts`: the ingest bench's TypeScript hook (swc transpile,
 * `@graph-history/<lib>` from the built workspace), plus packages the API bench needs that only the
 * API app depends on (fastify, pg for the baseline server).
 */
const Module = require('node:module');
const path = require('node:path');

const original = Module._resolveFilename;
require('./ingest-ts-hook.js');
const ingestHook = Module._resolveFilename;
const paths = [path.resolve(__dirname, '../apps/api'), path.resolve(__dirname, '../libs/db')];

Module._resolveFilename = function (request, parent, isMain, options) {
  try {
    return ingestHook.call(this, request, parent, isMain, options);
  } catch (err) {
    if (request.startsWith('.') || path.isAbsolute(request)) throw err;
    // the original resolver, not require.resolve: no second pass through the hooks
    return original.call(this, request, parent, isMain, { paths });
  }
};
