import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { ReadSession } from '../application/versioning';
import { ownerOfEverything } from '../core/access';
import type { Services } from '../application/services';
import { formatProblem, readRegistryFile, type Entry } from '../registry-files';

/**
 * The demo data comes from the shipped example files, the same ones
 * `npm run register -- examples/` sends to a running server: the registry
 * (git-checkout, and fs-directory as its sub-type; a repository and the
 * shared config directory; project `demo` linking the repository as `repo`)
 * the shop the docs' examples use (type database; prod/orders-db linked to
 * project shop as `db`, prod/users-db linked without an alias; the tool
 * acme/migrate with a contextual `db` slot), and the seed's "Mixed Bindings"
 * tool `demo/mixed`. Resolving demo/mixed in demo gives: repo CONTEXTUAL →
 * acme/app-repo, config STATIC → local/shared-config, output PARAMETER
 * deferred; acme/migrate in shop binds db to prod/orders-db by its alias.
 */
export const DEMO_FILES = ['examples/registry.yaml', 'examples/shop.yaml', 'examples/tools/demo-mixed.yaml'] as const;

/** Loads the demo files into a new registry through the services. A file that does not check out stops the start. */
export async function loadDemoData(services: Services, session: ReadSession): Promise<void> {
  const root = repositoryRoot();
  const files = DEMO_FILES.map((file) => {
    const outcome = readRegistryFile(join(root, file), file);
    if (!outcome.ok) throw new Error(`demo data: ${outcome.problems.map(formatProblem).join('; ')}`);
    return outcome.value;
  });
  for (const file of files) {
    for (const entry of file.entries) await apply(services, session, entry);
  }
}

/** Registers one entry of a file through the service that owns it. */
async function apply(services: Services, session: ReadSession, entry: Entry): Promise<void> {
  const as = (operation: string) => ({ session, principal: ownerOfEverything(DEMO_ACTOR), operation, dryRun: false });
  switch (entry.kind) {
    case 'resourceType':
      await services.resourceTypes.register(entry.input, as('registerResourceType'));
      return;
    case 'resource':
      await services.resources.register(entry.input, as('registerResource'));
      return;
    case 'project':
      await services.projects.create(entry.input, as('createProject'));
      return;
    case 'link':
      await services.projects.link(entry.input, as('linkResource'));
      return;
    case 'tool':
      await services.tools.register(entry.input, as('registerTool'));
      return;
  }
}

/** The actor the change log records for the demo data. */
export const DEMO_ACTOR = 'demo-data';

/**
 * The folder holding package.json: the repository root, whether this file
 * runs from src/demo (tests, swc) or from dist/src/demo (`npm start`).
 */
export function repositoryRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir)
      throw new Error(`demo data: no package.json above ${relative(process.cwd(), from) || '.'}`);
  }
}
