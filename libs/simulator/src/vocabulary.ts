/** Words the simulator builds realistic-looking titles, purposes, summaries and tasks from. */
export const SESSION_TITLES = [
  'Fix flaky checkout tests',
  'Add rate limiting to the public API',
  'Migrate billing service to Postgres 16',
  'Investigate memory leak in the worker',
  'Refactor the search indexer',
  'Write onboarding docs',
  'Upgrade the build to Node 20',
  'Triage incoming bug reports',
] as const;

export const CWDS = [
  '/home/dev/shop',
  '/home/dev/api',
  '/srv/billing',
  '/home/dev/search',
  '/home/dev/docs',
] as const;

export const AGENT_TYPES = [
  'general-purpose',
  'Explore',
  'Plan',
  'code-reviewer',
  'test-runner',
] as const;

export const PURPOSES = [
  'Find every caller of the deprecated client',
  'Run the integration tests and report failures',
  'Review the diff for security issues',
  'Draft a migration plan',
  'Search the logs for the first error',
  'Benchmark the new query',
  'Summarise the open issues',
  'Update the changelog',
] as const;

export const SUMMARIES = [
  'Reading the test output',
  'Editing src/server.ts',
  'Running pnpm test',
  'Waiting for the build',
  'Searching the codebase for usages',
  'Writing the summary\nDetails follow in the next message.',
  'Comparing query plans',
  'Checking the CI logs',
] as const;

export const TASKS = [
  'Reproduce the failure',
  'Write a failing test',
  'Fix the bug',
  'Update the docs',
  'Run the whole suite',
  'Clean up debug logging',
  'Open the pull request',
] as const;

export const MESSAGES = [
  'Can you take the frontend part?',
  'Tests are green on my side.',
  'I need the schema before I can continue.',
  'Found the root cause, see my summary.',
  'Please re-run the benchmark.',
] as const;

export const WAIT_REASONS = [
  'needs results',
  'shared lock',
  'review pending',
  'waiting for schema',
] as const;

export const ATTENTION_MESSAGES = {
  permission: 'Allow running `rm -rf build/`?',
  question: 'Which database should I target?',
  error: 'API Error: 529 overloaded',
} as const;

/** Models usage is reported for: priced ones, a dated name, and one the price table lacks. */
export const MODELS = [
  'claude-sonnet-4-5-20250929',
  'claude-opus-4-5',
  'claude-haiku-4-5',
  'gpt-5-codex',
  'in-house-model',
] as const;
