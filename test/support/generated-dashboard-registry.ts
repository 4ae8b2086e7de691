import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateRegistry } from '../../scripts/bench/generate';
import { DEFAULT_SIZE } from '../../scripts/bench/options';
import { sqlite } from './backends';
import { ADMIN_TOKEN, admin } from './dashboard-browser';
import { startServer, type TestServer } from './server';

/** A server on a registry of the benchmark's default size, and things of it to open pages of. */
export interface GeneratedRegistry {
  readonly server: TestServer;
  readonly some: { readonly tool: string; readonly project: string; readonly resource: string; readonly type: string };
  close(): Promise<void>;
}

/**
 * Generates a registry of the benchmark's default size (its own generator) into a temporary folder, and starts a
 * server on it with the dashboard tests' admin token (dashboard-scale.test.ts, and the pictures of
 * test/screenshots/dashboard.pictures.ts).
 */
export async function startGeneratedRegistry(prefix: string): Promise<GeneratedRegistry> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const path = join(dir, 'registry.sqlite');
  let server: TestServer | undefined;
  try {
    await generateRegistry(path, DEFAULT_SIZE, 'dashboard');
    // The comparison of compiled answers with graphql-js would run every request twice: not for this size.
    server = await startServer(
      sqlite,
      { database: { kind: 'sqlite', path }, adminToken: ADMIN_TOKEN },
      { checkExecution: false },
    );
    const first = await admin(server)(`{
      tools(first: 1) { edges { node { name } } }
      projects(first: 1) { edges { node { name resources { resource { name } } } } }
      resourceTypes(first: 50, filter: { nameContains: "-l2-" }) { edges { node { name subtypes { name } } } }
    }`);
    // A type in the middle of the hierarchy, with the most sub-types: its page has a neighbourhood to draw.
    const types = (first.resourceTypes.edges as { node: { name: string; subtypes: unknown[] } }[]).map((e) => e.node);
    const running = server;
    return {
      server: running,
      some: {
        tool: first.tools.edges[0].node.name,
        project: first.projects.edges[0].node.name,
        resource: first.projects.edges[0].node.resources[0].resource.name,
        type: types.reduce((a, b) => (b.subtypes.length > a.subtypes.length ? b : a)).name,
      },
      async close() {
        await running.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
