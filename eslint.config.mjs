// ESLint: typescript-eslint's type-checked recommended rules over the whole tree.
// Formatting is Prettier's job and architecture is dependency-cruiser's (npm run lint runs all three).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'bench-results/',
      'data/',
      '.tmp/',
      'test/fixtures/',
      'examples/generated/',
      '*.cjs',
      '*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Off: Apollo plugin hooks and Fastify handlers must return promises by contract, so `async` without
      // `await` is how they are written here; a forgotten await is caught by no-floating-promises instead.
      '@typescript-eslint/require-await': 'off',
      // A leading underscore marks a binding kept on purpose (an ignored parameter, a field dropped by rest).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Off in tests only: GraphQL response bodies are untyped JSON (`data` is `any`), read field by field and
      // checked by chai's assertions; typing every response shape would add no safety the assertions lack.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
);
