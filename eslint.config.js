// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      'coverage/**',
      'eslint.config.js',
      // Type-checked by test/typed-client/typed-client.test.ts against generated types.
      'test/typed-client/fixture/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // The plain-JavaScript scripts (scripts/*.mjs) are type-checked by tsc (checkJs), which
    // knows Node's globals; ESLint's own undefined-name rule does not.
    files: ['**/*.mjs'],
    rules: { 'no-undef': 'off' },
  },
);
