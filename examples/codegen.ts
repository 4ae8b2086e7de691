// GraphQL Code Generator: TypeScript types for the operations in examples/operations.
// `npx graphql-codegen --config examples/codegen.ts` writes examples/generated/operations.ts (the test suite
// generates the same into a temporary folder and type-checks it). typescript-operations 6 works alone: it emits the
// enums and inputs the operations use, so the `typescript` plugin is not added (with it, both emit them: duplicates).
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  // The schema file in this repository; a running server's URL (http://localhost:4000/graphql) works too.
  schema: 'schema.graphql',
  documents: 'examples/operations/*.graphql',
  generates: {
    'examples/generated/operations.ts': {
      plugins: ['typescript-operations'],
      config: {
        // DateTime is an RFC 3339 string on the wire.
        scalars: { DateTime: 'string' },
        // Enums as string unions: no runtime code, and they match the JSON as it arrives.
        enumType: 'string-literal',
      },
    },
  },
};

export default config;
