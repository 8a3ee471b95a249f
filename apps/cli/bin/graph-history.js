#!/usr/bin/env node
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports */
/* global require, __dirname, process */
// The `graph-history` executable: runs the built CLI, or says in one line how to build it.
var path = require('path');
var fs = require('fs');

var main = path.join(__dirname, '..', 'dist', 'main.js');
if (!fs.existsSync(main)) {
  process.stderr.write('error: ' + main + ' is missing: build first with `pnpm build`.\n');
  process.exit(1);
}
require(main);
