/**
 * Generates the dashboard's operation types (web/dashboard/generated/operations.ts)
 * from its documents (web/dashboard/operations/*.ts, the `/* GraphQL *\/`
 * templates) against schema.graphql, with GraphQL Code Generator's
 * typescript-operations plugin alone (with the `typescript` plugin too, enums
 * and inputs are emitted twice). `npm run codegen:dashboard` writes the file;
 * test/unit/dashboard-codegen.test.ts generates it again in memory and fails
 * when the committed file differs.
 */
import { generate } from '@graphql-codegen/cli';
import type { CodegenConfig } from '@graphql-codegen/cli';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

/** Where the types go. */
export const DASHBOARD_TYPES = join(ROOT, 'web', 'dashboard', 'generated', 'operations.ts');

/** The codegen configuration. */
export const dashboardCodegen: CodegenConfig = {
  schema: join(ROOT, 'schema.graphql'),
  documents: [join(ROOT, 'web', 'dashboard', 'operations', '*.ts')],
  silent: true,
  generates: {
    [DASHBOARD_TYPES]: {
      plugins: ['typescript-operations'],
      config: {
        scalars: { DateTime: 'string' },
        enumType: 'string-literal',
        immutableTypes: true,
        skipTypename: true,
      },
    },
  },
};

/** The file's text as codegen makes it now. */
export async function generateDashboardTypes(): Promise<string> {
  const [output] = (await generate(dashboardCodegen, false)) as { filename: string; content: string }[];
  return output.content;
}

if (require.main === module) {
  generate(dashboardCodegen, true).then(
    () => console.log(`wrote ${DASHBOARD_TYPES}`),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
