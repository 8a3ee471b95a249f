import { unsupportedNode } from './node-version';

// Imported first by main: stops before anything that needs a newer Node.js is loaded.
const problem = unsupportedNode(process.versions.node);
if (problem) {
  process.stderr.write(`error: ${problem}\n`);
  process.exit(1);
}
