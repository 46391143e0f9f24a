// ESLint for the client (npm run lint; scripts/ci.sh runs it before the unit tests): the
// recommended JavaScript and typescript-eslint rules, with the type information of tsconfig.json
// for the rules that need it (floating promises, misused promises, unsafe any).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/**', 'out/**', 'out-test/**', 'bundled/**', 'node_modules/**', 'src/contract.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `void promise` marks a promise the code means not to wait for (a message's buttons)
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // a `let` that a closure reads before its one assignment (the client in its own options)
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // node:test's test() returns a promise the runner itself awaits
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-floating-promises': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      // Node's (and, inside page.evaluate callbacks of e2e/run.mjs, the browser's)
      globals: {
        console: 'readonly', process: 'readonly', URL: 'readonly', setTimeout: 'readonly',
        clearTimeout: 'readonly', Buffer: 'readonly', fetch: 'readonly', navigator: 'readonly',
      },
    },
  },
);
