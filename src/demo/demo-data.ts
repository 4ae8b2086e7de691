import type { Loaders } from '../application/loaders';
import type { Services } from '../graphql/context';

/**
 * The seed's example: git-checkout, and fs-directory as its sub-type; a
 * repository and the shared config directory; project `demo` linking the
 * repository as `repo`; and the "Mixed Bindings" tool `demo/mixed`.
 * Resolving demo/mixed in demo gives: repo CONTEXTUAL → acme/app-repo,
 * config STATIC → local/shared-config, output PARAMETER deferred.
 */
export async function loadDemoData(services: Services, loaders: Loaders): Promise<void> {
  await services.resourceTypes.register({ name: 'git-checkout', description: 'A checked-out git working tree.' }, loaders);
  await services.resourceTypes.register({ name: 'fs-directory', description: 'A directory on a file system.', parentTypes: ['git-checkout'] }, loaders);
  await services.resources.register({ name: 'local/shared-config', type: 'fs-directory', description: 'Configuration shared by every project.' }, loaders);
  await services.resources.register({ name: 'acme/app-repo', type: 'git-checkout', description: "The application's repository." }, loaders);
  await services.projects.create({ name: 'demo', description: 'The seed example project.' }, loaders);
  await services.projects.link({ project: 'demo', resource: 'acme/app-repo', alias: 'repo' }, loaders);
  await services.tools.register(
    {
      name: 'demo/mixed',
      description: 'The seed\'s "Mixed Bindings" tool: one slot of each binding mode.',
      resourceSlots: [
        { name: 'repo', resourceType: 'git-checkout', access: 'READ_WRITE', binding: 'CONTEXTUAL' },
        { name: 'config', resourceType: 'fs-directory', access: 'READ_ONLY', binding: 'STATIC', staticResource: 'local/shared-config' },
        { name: 'output', resourceType: 'fs-directory', access: 'WRITE_ONLY', binding: 'PARAMETER' },
      ],
    },
    loaders,
  );
}
