// ESLint: typescript-eslint's type-checked recommended rules over the whole tree.
// Formatting is Prettier's job and architecture is dependency-cruiser's (npm run lint runs all three).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import graphql from '@graphql-eslint/eslint-plugin';

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
      'web/dashboard/generated/',
      '*.cjs',
      '*.mjs',
    ],
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
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
    // What the server keeps per request lives on the request (src/engine/request-state.ts), never in a WeakMap or
    // WeakSet keyed by it: V8's young-generation GC keeps such an entry's value alive until a full collection, so
    // every request's state was promoted to the old generation (about a third of a unique request's CPU).
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'NewExpression[callee.name=/^Weak(Map|Set)$/] TSTypeReference[typeName.name=/^(FastifyRequest|FastifyReply|IncomingMessage)$/]',
          message: 'Keep per-request state on the request (src/engine/request-state.ts), not in a WeakMap keyed by it.',
        },
        {
          selector:
            'TSTypeReference[typeName.name=/^Weak(Map|Set)$/] TSTypeReference[typeName.name=/^(FastifyRequest|FastifyReply|IncomingMessage)$/]',
          message: 'Keep per-request state on the request (src/engine/request-state.ts), not in a WeakMap keyed by it.',
        },
      ],
    },
  },
  {
    // Size: a file that needs a table of contents is several files, and a function that needs one is several
    // functions. The migrations are exempt: each is a record of what was once applied, kept as it was written.
    files: ['src/**/*.ts'],
    ignores: ['src/persistence/migrations/**'],
    rules: {
      'max-lines': ['error', { max: 450 }],
      'max-lines-per-function': ['error', { max: 80 }],
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
  {
    // The emitted schema: graphql-eslint's schema-recommended and relay rules.
    files: ['schema.graphql'],
    languageOptions: { parser: graphql.parser, parserOptions: { graphQLConfig: { schema: 'schema.graphql' } } },
    plugins: { '@graphql-eslint': graphql },
    rules: {
      ...graphql.configs['flat/schema-recommended'].rules,
      ...graphql.configs['flat/schema-relay'].rules,
      // Configured: every object type has an id, except these. Payloads, connections, edges and pages are
      // envelopes; the types listed are answers computed per request (resolutions, explanations, binding impact,
      // usage, matrix cells, validation problems), not stored objects, so there is nothing that would identify
      // them across requests (the README gives Apollo Client typePolicies for the ones a client caches).
      '@graphql-eslint/strict-id-in-types': [
        'error',
        {
          acceptedIdNames: ['id'],
          acceptedIdTypes: ['ID'],
          exceptions: {
            suffixes: ['Payload', 'Connection', 'Edge', 'Page'],
            types: [
              'PageInfo',
              'BindingChange',
              'BindingExplanation',
              'BindingImpact',
              'BindingMatrix',
              'BindingResult',
              'BindingSummary',
              'CandidateExplanation',
              'MatrixCell',
              'ProjectCounts',
              'ProjectSummary',
              'RegisteredEntry',
              'ResourceUsage',
              'SlotExplanation',
              'SlotOutcome',
              'StaticBinding',
              'StatusCounts',
              'SummaryCell',
              'ToolCounts',
              'ToolProblem',
              'ToolSummary',
              // Who is asking: the request's principal, not a stored object.
              'Viewer',
            ],
          },
        },
      ],
      // Configured: plain lists are allowed besides connections. The lists that are not connections are bounded
      // and never paged (a tool's slots, a project's links, a type's parents, explanations, matrix cells).
      '@graphql-eslint/relay-edge-types': ['error', { listTypeCanWrapOnlyEdgeType: false, shouldImplementNode: true }],
      // Configured: as recommended, except that ResourceType keeps its name, the seed document's own term.
      '@graphql-eslint/naming-convention': [
        'error',
        {
          ...graphql.configs['flat/schema-recommended'].rules['@graphql-eslint/naming-convention'][1],
          'ObjectTypeDefinition,ObjectTypeExtension': {
            forbiddenPrefixes: ['Type'],
            forbiddenSuffixes: ['Type'],
            ignorePattern: '^ResourceType$',
          },
        },
      ],
      // Stricter than recommended: a description on everything, not only on types and root fields.
      '@graphql-eslint/require-description': [
        'error',
        {
          types: true,
          rootField: true,
          DirectiveDefinition: true,
          FieldDefinition: true,
          InputValueDefinition: true,
          EnumValueDefinition: true,
        },
      ],
    },
  },
);
