import { generate } from '@graphql-codegen/cli';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import codegenConfig from '../../examples/codegen';

const ROOT = join(__dirname, '..', '..');
const SCHEMA = join(ROOT, 'schema.graphql');

/**
 * The client tools people use on this API, run on the emitted schema:
 * relay-compiler on a small Relay app (connections, refetchable fragments,
 * node, @deleteRecord), and GraphQL Code Generator with the setup that
 * docs/api.md shows, whose output must type-check.
 */
describe('client tooling on schema.graphql', function () {
  this.timeout(120_000);
  const scratch = mkdtempSync(join(tmpdir(), 'client-tooling-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('relay-compiler compiles @connection on tools and changes, @refetchable fragments on Tool and on Query, node refetch queries', async () => {
    const app = join(scratch, 'relay');
    cpSync(join(ROOT, 'test', 'fixtures', 'relay'), app, { recursive: true });
    cpSync(SCHEMA, join(app, 'schema.graphql'));
    mkdirSync(join(app, '__generated__'));
    writeFileSync(
      join(app, 'relay.config.json'),
      JSON.stringify({
        src: './src',
        schema: './schema.graphql',
        language: 'typescript',
        artifactDirectory: './__generated__',
      }),
    );
    const cli = join(ROOT, 'node_modules', 'relay-compiler', 'cli.js');
    const run = await promisify(execFile)(process.execPath, [cli], { cwd: app }).then(
      (out) => ({ code: 0, output: out.stdout + out.stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({
        code: error.code ?? 1,
        output: (error.stdout ?? '') + (error.stderr ?? ''),
      }),
    );
    expect(run.output).to.not.match(/ERROR/);
    expect(run.code, run.output).to.equal(0);
    const artifacts = readdirSync(join(app, '__generated__')).sort();
    expect(artifacts).to.include.members([
      'ToolListPaginationQuery.graphql.ts',
      'ToolCardRefetchQuery.graphql.ts',
      'ChangeHistoryPaginationQuery.graphql.ts',
      'ProjectPickerPaginationQuery.graphql.ts',
      'MutationsUnregisterToolMutation.graphql.ts',
    ]);
    // The Tool fragment refetches through node(id), which needs Tool to implement Node.
    const refetch = readFileSync(join(app, '__generated__', 'ToolCardRefetchQuery.graphql.ts'), 'utf8');
    expect(refetch).to.match(/node\(id: \$id\)/);
    // The backward connection is wired to last/before.
    const history = readFileSync(join(app, '__generated__', 'ChangeHistory_query.graphql.ts'), 'utf8');
    expect(history).to.match(/"direction": "backward"/);
  });

  it("GraphQL Code Generator (typescript-operations, docs/api.md's setup) types the example operations, and they type-check", async () => {
    // docs/api.md shows examples/codegen.ts as it is.
    const doc = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');
    const file = readFileSync(join(ROOT, 'examples', 'codegen.ts'), 'utf8');
    const shown = /```ts\n((?: {2})?import type \{ CodegenConfig \}[\s\S]*?) *```/.exec(doc)?.[1];
    expect(shown?.replace(/^ {2}/gm, '')).to.equal(file);
    const out = join(scratch, 'codegen', 'operations.ts');
    const [target] = Object.keys(codegenConfig.generates);
    await generate(
      {
        ...codegenConfig,
        schema: SCHEMA,
        documents: join(ROOT, 'examples', 'operations', '*.graphql'),
        generates: { [out]: codegenConfig.generates[target] },
        silent: true,
      },
      true,
    );
    expect(existsSync(out)).to.equal(true);
    const generated = readFileSync(out, 'utf8');
    // Each enum and input is emitted once (with the `typescript` plugin as well, they were emitted twice).
    for (const name of ['Access', 'BindingMode', 'ToolFilter', 'RegisterToolInput']) {
      expect(generated.match(new RegExp(`^export type ${name} =`, 'gm')), name).to.have.length(1);
    }
    // A client using the generated types, as an application would.
    const usage = join(scratch, 'codegen', 'client.ts');
    writeFileSync(
      usage,
      `import type { ResolveBindingsQuery, ResolveBindingsQueryVariables, RegisterToolMutationVariables,
         RecentChangesQuery, NodeByIdQuery, BindingMatrixQuery, RegistryChangedSubscription } from './operations';
       export const variables: ResolveBindingsQueryVariables = { tool: 'demo/mixed', project: 'demo',
         params: [{ slot: 'output', resource: 'local/shared-config' }] };
       export const register: RegisterToolMutationVariables = { dryRun: true, input: { name: 'acme/lint',
         resourceSlots: [{ name: 'repo', resourceType: 'git-checkout', access: 'READ_ONLY', binding: 'CONTEXTUAL' }] } };
       export const slots = (r: ResolveBindingsQuery): string[] =>
         r.resolveBindings.map((s) => \`\${s.slotName}: \${s.resource?.name ?? (s.deferred ? 'deferred' : 'none')}\`);
       export const latest = (r: RecentChangesQuery): number | undefined => r.changes.edges.at(-1)?.node.version;
       export const label = (r: NodeByIdQuery): string =>
         r.node?.__typename === 'Resource' ? r.node.type.name : r.node?.__typename === 'Tool' ? r.node.name : '';
       export const failed = (r: BindingMatrixQuery): number => r.bindingMatrix.cells.filter((c) => c.status === 'FAILED').length;
       export const impact = (e: RegistryChangedSubscription): number => e.registryChanged.bindingChanges.length;
      `,
    );
    const program = ts.createProgram([out, usage], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
      types: [],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).to.deep.equal([]);
  });
});
