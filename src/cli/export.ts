/**
 * `tool-registry export [--out <dir>]` (`npm run export -- …` in a checkout):
 * writes the whole registry as YAML in the format `tool-registry register`
 * reads, so registering the export into an empty registry gives the same
 * registry. See docs/registry-files.md, "Export".
 */
import { mkdirSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { registryDocument, stringifyDocument, toolDocument, toolFileName, type RegistryState } from '../registry-files';
import { serverOptions, UsageError, workInInvocationFolder } from './args';
import { GraphQLClient, UnreachableError, type GraphQLError } from './client';
import { progressBar } from './progress';
import { committedEdits, readRegistry, type PageProgress } from './registry-api';

const USAGE = `Usage: tool-registry export [options]   (in a checkout: npm run export -- [options])

Writes the whole registry as YAML that tool-registry register reads back:
<dir>/registry.yaml (resource types, resources, and projects with their links)
and one file per tool in <dir>/tools/, named after the tool with "/" written
as "--". Without --out, prints one registry document, tools included.

Options:
  --out <dir>      Folder to write (made when missing); *.yaml files in <dir>/tools
                   that are not tools of this export are removed
  --url <url>      GraphQL endpoint (default: http://localhost:4000/graphql)
  --token <token>  Bearer token sent as Authorization: an API token, a signed-in user's JWT or an admin token
                   (default: $REGISTRY_TOKEN, else $ADMIN_TOKEN)
  --no-progress    No progress bar, even on a terminal
  -h, --help       Show this help

Exit codes: 0 written, 1 the registry could not be read or written, 2 usage error.`;

/** The first lines of a registry file the export writes. */
const HEADER = ['Written by tool-registry export; tool-registry register reads it back.'];

/** Reads of the whole registry tried before giving up when it keeps changing underneath. */
const ATTEMPTS = 3;

/** A failure that ends the export with exit code 1. */
class ExportError extends Error {}

/** `tool-registry export …`: the exit code. */
export async function exportCommand(argv: string[]): Promise<number> {
  workInInvocationFolder('export');
  let options: { url: string; token: string | null; out: string | null; progress: boolean };
  try {
    options = parseCommandLine(argv);
  } catch (error) {
    if (error instanceof UsageError && error.message === 'help') {
      console.log(USAGE);
      return 0;
    }
    console.error(`export: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const progress = progressBar('export', 'items', options.progress);
  try {
    const registry = await readConsistently(new GraphQLClient(options.url, options.token), (connection, read, total) =>
      progress.update(read, total, connection),
    );
    progress.stop();
    if (options.out === null) process.stdout.write(stringifyDocument(registryDocument(registry), HEADER));
    else for (const line of writeFolder(options.out, registry)) console.log(line);
    return 0;
  } catch (error) {
    progress.stop();
    if (!(error instanceof ExportError || error instanceof UnreachableError)) throw error;
    console.error(`export: ${error.message}`);
    return 1;
  }
}

function parseCommandLine(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        out: { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string' },
        'no-progress': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  if (values.help) throw new UsageError('help');
  if (values.out === '') throw new UsageError('--out needs a folder');
  return { ...serverOptions(values), out: values.out ?? null, progress: !values['no-progress'] };
}

/**
 * The whole registry, read page by page. The change log's size is read
 * before and after: when an edit committed in between, the pages may not
 * fit together, and the registry is read again.
 */
async function readConsistently(client: GraphQLClient, onPage: PageProgress): Promise<RegistryState> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const before = orFail(await committedEdits(client));
    const registry = orFail(await readRegistry(client, onPage));
    if (orFail(await committedEdits(client)) === before) return registry;
  }
  throw new ExportError(`the registry changed during each of ${ATTEMPTS} reads; try again when it is quieter`);
}

function orFail<T>(result: T | { error: GraphQLError }): T {
  if (typeof result === 'object' && result !== null && 'error' in result) {
    const { error } = result;
    throw new ExportError(`${error.extensions?.code ?? 'ERROR'}: ${error.message}`);
  }
  return result;
}

/**
 * Writes <dir>/registry.yaml and <dir>/tools/<tool>.yaml, removes the YAML
 * files in <dir>/tools that are not tools of this export (an earlier
 * export's, which register would otherwise read back; hidden files are left
 * alone, as register leaves them), and says what it wrote.
 */
function writeFolder(dir: string, registry: RegistryState): string[] {
  const tools = join(dir, 'tools');
  const written = new Set<string>();
  let removed = 0;
  try {
    mkdirSync(tools, { recursive: true });
    writeFileSync(
      join(dir, 'registry.yaml'),
      stringifyDocument(registryDocument({ ...registry, tools: undefined }), HEADER),
    );
    for (const tool of registry.tools) {
      const name = toolFileName(tool.name);
      writeFileSync(join(tools, name), stringifyDocument(toolDocument(tool)));
      written.add(name);
    }
    for (const file of readdirSync(tools, { withFileTypes: true })) {
      const { name } = file;
      if (!file.isFile() || name.startsWith('.') || written.has(name)) continue;
      if (!['.yaml', '.yml'].includes(extname(name).toLowerCase())) continue;
      unlinkSync(join(tools, name));
      removed++;
    }
  } catch (error) {
    throw new ExportError(`cannot write ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const links = registry.projects.reduce((n, p) => n + p.links.length, 0);
  const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  return [
    `wrote ${join(dir, 'registry.yaml')}: ${count(registry.resourceTypes.length, 'resource type')}, ` +
      `${count(registry.resources.length, 'resource')}, ${count(registry.projects.length, 'project')}, ${count(links, 'link')}`,
    `wrote ${count(registry.tools.length, 'tool file')} in ${tools}${removed > 0 ? `; removed ${count(removed, 'file')} of tools no longer registered` : ''}`,
  ];
}
