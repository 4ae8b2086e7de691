import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema.graphql', // or a running server: http://localhost:4000/graphql
  documents: 'examples/operations/*.graphql',
  generates: {
    'examples/generated/operations.ts': {
      plugins: ['typescript-operations'],
      config: { scalars: { DateTime: 'string' }, enumType: 'string-literal' },
    },
  },
};
export default config;
