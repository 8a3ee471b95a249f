#!/usr/bin/env node
import './node-version-check';
import { runCli } from './cli';
import { processIo } from './io';

// `graph-history simulate … | head` closes stdout early: that is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
