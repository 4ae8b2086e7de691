import type { TestServer } from './server';

/** Small GraphQL helpers to build a registry through the API. */
export function registryOf(server: TestServer) {
  return {
    type: (name: string, parentTypes: string[] = []) =>
      server
        .data(
          `mutation($i: RegisterResourceTypeInput!) { registerResourceType(input: $i) { resourceType { id name } } }`,
          {
            i: { name, parentTypes },
          },
        )
        .then((d) => d.registerResourceType.resourceType as { id: string; name: string }),
    resource: (name: string, type: string) =>
      server
        .data(`mutation($i: RegisterResourceInput!) { registerResource(input: $i) { resource { id name } } }`, {
          i: { name, type },
        })
        .then((d) => d.registerResource.resource as { id: string; name: string }),
    project: (name: string) =>
      server
        .data(`mutation($i: CreateProjectInput!) { createProject(input: $i) { project { id name } } }`, { i: { name } })
        .then((d) => d.createProject.project as { id: string; name: string }),
    link: (project: string, resource: string, alias: string | null = null) =>
      server.data(`mutation($i: LinkResourceInput!) { linkResource(input: $i) { project { id } } }`, {
        i: { project, resource, alias },
      }),
    tool: (name: string, resourceSlots: Record<string, unknown>[]) =>
      server
        .data(`mutation($i: RegisterToolInput!) { registerTool(input: $i) { tool { id name } } }`, {
          i: { name, resourceSlots },
        })
        .then((d) => d.registerTool.tool as { id: string; name: string }),
  };
}

/** Registers the seed's example: the same data DEMO_DATA loads. */
export async function seedExample(server: TestServer): Promise<void> {
  const r = registryOf(server);
  await r.type('git-checkout');
  await r.type('fs-directory', ['git-checkout']);
  await r.resource('local/shared-config', 'fs-directory');
  await r.resource('acme/app-repo', 'git-checkout');
  await r.project('demo');
  await r.link('demo', 'acme/app-repo', 'repo');
  await r.tool('demo/mixed', [
    { name: 'repo', resourceType: 'git-checkout', access: 'READ_WRITE', binding: 'CONTEXTUAL' },
    {
      name: 'config',
      resourceType: 'fs-directory',
      access: 'READ_ONLY',
      binding: 'STATIC',
      staticResource: 'local/shared-config',
    },
    { name: 'output', resourceType: 'fs-directory', access: 'WRITE_ONLY', binding: 'PARAMETER' },
  ]);
}

/** The query most tests use to resolve bindings. */
export const RESOLVE = `query($tool: String!, $project: String!, $params: [BindingParamInput!]) {
  resolveBindings(tool: $tool, project: $project, params: $params) {
    slotName bindingMode resourceId resource { name } deferred access
  }
}`;
