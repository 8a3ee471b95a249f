/** @type {import('jest').Config} */
const swc = ['@swc/jest', JSON.parse(require('fs').readFileSync(__dirname + '/.swcrc', 'utf8'))];
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  transform: { '^.+\\.(t|j)s$': swc },
  moduleNameMapper: {
    '^@graph-history/(domain|config|db|http|client)$': '<rootDir>/libs/$1/src',
    // The client's sources import siblings as `./x.js` (what its ES module build needs).
    '^(\\.{1,2}/.*)\\.js$': '$1',
    '^@graph-history/simulator$': '<rootDir>/libs/simulator/src',
    '^@graph-history/adapters$': '<rootDir>/libs/adapters/src',
    '^@graph-history/migrations$': '<rootDir>/db/migrations',
    '^@graph-history/(api|ingestor|cli)/(.*)$': '<rootDir>/apps/$1/src/$2',
  },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  setupFiles: ['<rootDir>/test/id-key.ts'],
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 60000,
  maxWorkers: 2,
};
