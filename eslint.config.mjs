import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      'libs/client/src/generated/**',
      '**/node_modules/**',
      '.data/**',
      'coverage/**',
      '*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'off',
    },
  },
  {
    // Migrations run against whatever schema came before them: Kysely<any> is their documented type.
    files: ['db/migrations/**/*.ts', 'libs/db/src/migrate.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
