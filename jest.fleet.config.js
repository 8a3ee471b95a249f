/** `pnpm test:fleet`: the fleet's tests (a whole fleet per file, ~2 minutes), not in `pnpm test`. */
const base = require('./jest.config');
module.exports = { ...base, testMatch: ['**/*.fleet-spec.ts'], maxWorkers: 1, testTimeout: 120000 };
