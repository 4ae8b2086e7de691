import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { repositoryRoot } from '../../src/demo/demo-data';
import { parseRegistryFile, withDefaults } from '../../src/registry-files';
import { sqlite } from '../support/backends';
import { runScript } from '../support/cli';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const runExport = (args: string[]) => runScript('export', args);
const runRegister = (args: string[]) => runScript('register', args);

/** Every file under a folder, by relative path, with its text. */
function readTree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(dir, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return files;
}

/**
 * Everything the API lists about a registry, ids left out: every type with
 * its parents, ancestors and sub-types, every resource with its users, every
 * project with its links, every tool with its slots, and how each tool binds
 * in each project.
 */
async function digest(server: TestServer) {
  const listings = await server.data(`{
    resourceTypes(first: 100) { totalCount edges { node { name description parentTypes { name } ancestors { name } subtypes { name } } } }
    resources(first: 100) { totalCount edges { node { name shortName description type { name }
      usedBy { links { alias project { name } } staticBindings { slotName tool { name } } } } } }
    projects(first: 100) { totalCount edges { node { name description resources { alias resource { name } } } } }
    tools(first: 100) { totalCount edges { node { name description
      resourceSlots { name access binding required resourceType { name } staticResource { name } } } } } }`);
  for (const kind of ['resourceTypes', 'resources', 'projects', 'tools'])
    expect(listings[kind].edges).to.have.length(listings[kind].totalCount);
  const bindings: unknown[] = [];
  for (const { node } of listings.projects.edges) {
    const { tools } = await server.data(
      `query($p: String!) { tools(first: 100) { edges { node { name bindingsIn(project: $p) {
        ok slots { slotName status reason how resource { name } } } } } } }`,
      { p: node.name },
    );
    bindings.push({ project: node.name, tools: tools.edges });
  }
  return { listings, bindings };
}

/** A small seeded random source (mulberry32): the same registry for the same seed. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Descriptions that are hard to write as YAML: unicode, line breaks, blanks at the ends, YAML look-alikes. */
const DESCRIPTIONS = [
  null,
  null,
  '',
  'Plain words.',
  'ünïcødé — 日本語 🎉 مرحبا',
  'line one\nline two',
  'ends with a line break\n',
  'blank lines at the end\n\n\n',
  '  padded at both ends  ',
  'a tab\tand a CRLF\r\nthen more',
  'quotes: "double" and \'single\'',
  '# not a comment',
  'yes',
  '- looks like a list',
  'key: value',
  'a line separator\u2028and a NEL\u0085too',
];

const SLOT_NAMES = ['db', 'repo', 'cache', 'out', 'config', '_scratch', 'in-1'];

/**
 * Builds a registry through the API from a seed: 8 types over several levels
 * (some with two parents), 30 resources, 6 projects linking some of them
 * (some under aliases), and 10 tools mixing contextual, static and parameter
 * slots, optional ones, and names that need escaping as file names.
 */
async function buildRegistry(server: TestServer, seed: number): Promise<void> {
  const next = randomFrom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const r = registryOf(server);
  const mutate = (field: string, inputType: string, input: object) =>
    server.data(`mutation($i: ${inputType}!) { ${field}(input: $i) { registryVersion } }`, { i: input });

  const typeNames = ['base', 'storage', 'fs-dir', 'git-repo', 'db', 'sql-db', 'queue', 'cache'];
  const ancestors = new Map<string, Set<string>>();
  for (const [i, name] of typeNames.entries()) {
    const parents: string[] = [];
    if (i > 0) parents.push(typeNames[Math.floor(next() * i)]);
    if (i > 2 && next() < 0.4) {
      const second = typeNames[Math.floor(next() * i)];
      if (!parents.includes(second)) parents.push(second);
    }
    ancestors.set(name, new Set(parents.flatMap((p) => [p, ...ancestors.get(p)!])));
    await mutate('registerResourceType', 'RegisterResourceTypeInput', {
      name,
      description: pick(DESCRIPTIONS),
      parentTypes: parents,
    });
  }

  const resources: { name: string; type: string }[] = [];
  for (let i = 0; i < 30; i++) {
    const resource = { name: `${pick(['gen', 'Team.A', 'ops_x'])}/${pick(SLOT_NAMES)}-${i}`, type: pick(typeNames) };
    resources.push(resource);
    await mutate('registerResource', 'RegisterResourceInput', { ...resource, description: pick(DESCRIPTIONS) });
  }

  for (let p = 0; p < 6; p++) {
    const project = `gen/project-${p}`;
    await mutate('createProject', 'CreateProjectInput', { name: project, description: pick(DESCRIPTIONS) });
    const linked = new Set<string>();
    const aliases = new Set<string>();
    for (let k = 2 + Math.floor(next() * 6); k > 0; k--) {
      const resource = pick(resources).name;
      if (linked.has(resource)) continue;
      linked.add(resource);
      const alias = next() < 0.4 ? pick(SLOT_NAMES) : null;
      const free = alias !== null && !aliases.has(alias);
      if (free) aliases.add(alias);
      await r.link(project, resource, free ? alias : null);
    }
  }

  const toolNames = ['gen/tool-0', 'gen/a--b', '.hidden/tool', '-edge-/x', 'Upper/Case.Tool', 'gen/deep/er/tool'];
  for (let t = 0; t < 10; t++) {
    const slots: Record<string, unknown>[] = [];
    const used = new Set<string>();
    for (let s = 1 + Math.floor(next() * 4); s > 0; s--) {
      const name = pick(SLOT_NAMES);
      if (used.has(name)) continue;
      used.add(name);
      const binding = pick(['CONTEXTUAL', 'CONTEXTUAL', 'STATIC', 'PARAMETER']);
      const slot: Record<string, unknown> = {
        name,
        access: pick(['READ_ONLY', 'READ_WRITE', 'WRITE_ONLY']),
        binding,
        required: next() < 0.7,
        resourceType: pick(typeNames),
      };
      if (binding === 'STATIC') {
        // A resource of the slot's type or of a sub-type, so the static check passes.
        const resource = pick(resources);
        slot.staticResource = resource.name;
        slot.resourceType = pick([resource.type, ...ancestors.get(resource.type)!]);
      }
      slots.push(slot);
    }
    await mutate('registerTool', 'RegisterToolInput', {
      name: toolNames[t] ?? `gen/tool-${t}`,
      description: pick(DESCRIPTIONS),
      resourceSlots: slots,
    });
  }
}

describe('export CLI (npm run export) against a real server', function () {
  let scratch: string;
  let source: TestServer | undefined;
  let target: TestServer | undefined;

  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'export-cli-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));
  afterEach(async () => {
    await source?.close();
    await target?.close();
    source = target = undefined;
  });

  /** Exports `from` into `dir`, registers that into an empty server, and exports it again into `dir`-again. */
  async function roundTrip(from: TestServer, dir: string) {
    const exported = await runExport(['--url', from.url, '--out', dir]);
    expect(exported.stderr).to.equal('');
    expect(exported.code).to.equal(0);
    target = await startServer(sqlite);
    const registered = await runRegister(['--url', target.url, dir]);
    expect(registered.stdout).to.match(/^\d+ registered, 0 updated, 0 unchanged, 0 failed, 0 skipped \(\d+ files\)$/m);
    expect(registered.code).to.equal(0);
    const again = await runExport(['--url', target.url, '--out', `${dir}-again`]);
    expect(again.code).to.equal(0);
    expect(readTree(`${dir}-again`)).to.deep.equal(readTree(dir));
    expect(await digest(target)).to.deep.equal(await digest(from));
    return { exported, target };
  }

  it('exports the demo registry as the example files say it, and registering the export gives the same registry', async () => {
    source = await startServer(sqlite, { demoData: true });
    const dir = join(scratch, 'demo');
    const { exported } = await roundTrip(source, dir);
    expect(exported.stdout).to.equal(
      `wrote ${dir}/registry.yaml: 3 resource types, 4 resources, 2 projects, 3 links\n` +
        `wrote 2 tool files in ${dir}/tools\n`,
    );
    expect(Object.keys(readTree(dir))).to.deep.equal([
      'registry.yaml',
      'tools/acme--migrate.yaml',
      'tools/demo--mixed.yaml',
    ]);
    expect(readFileSync(join(dir, 'registry.yaml'), 'utf8')).to.equal(
      [
        '# Written by tool-registry export; tool-registry register reads it back.',
        '',
        'resource_types:',
        '  - name: database',
        '  - name: fs-directory',
        '    description: A directory on a file system.',
        '    parent_types: [git-checkout]',
        '  - name: git-checkout',
        '    description: A checked-out git working tree.',
        '',
        'resources:',
        '  - name: acme/app-repo',
        '    type: git-checkout',
        "    description: The application's repository.",
        '  - name: local/shared-config',
        '    type: fs-directory',
        '    description: Configuration shared by every project.',
        '  - name: prod/orders-db',
        '    type: database',
        '  - name: prod/users-db',
        '    type: database',
        '',
        'projects:',
        '  - name: demo',
        '    description: The seed example project.',
        '    links:',
        '      - resource: acme/app-repo',
        '        alias: repo',
        '  - name: shop',
        '    links:',
        '      - resource: prod/orders-db',
        '        alias: db',
        '      - resource: prod/users-db',
        '',
      ].join('\n'),
    );
    // The shipped tool file and the exported one hold the same tool (the shipped one spells out some defaults).
    const toolIn = (path: string) => {
      const outcome = parseRegistryFile(readFileSync(path, 'utf8'), path);
      const [entry] = outcome.ok ? outcome.value.entries : [];
      return entry?.kind === 'tool'
        ? { ...entry.input, resourceSlots: entry.input.resourceSlots.map(withDefaults) }
        : null;
    };
    expect(toolIn(join(dir, 'tools/demo--mixed.yaml')))
      .to.deep.equal(toolIn(join(repositoryRoot(), 'examples/tools/demo-mixed.yaml')))
      .and.not.equal(null);

    // Without --out: one registry document, tools included, that registers the same way.
    const printed = await runExport(['--url', source.url]);
    expect(printed.code).to.equal(0);
    expect(printed.stdout).to.match(/\n\ntools:\n {2}- name: acme\/migrate\n[\s\S]*\n {2}- name: demo\/mixed\n/);
    const single = join(scratch, 'demo.yaml');
    writeFileSync(single, printed.stdout);
    const fresh = await startServer(sqlite);
    try {
      expect((await runRegister(['--url', fresh.url, single])).code).to.equal(0);
      expect((await runExport(['--url', fresh.url])).stdout).to.equal(printed.stdout);
    } finally {
      await fresh.close();
    }
  });

  it('round-trips a generated registry: the same files again, and the same answers from the API', async () => {
    source = await startServer(sqlite);
    await buildRegistry(source, 20261201);
    const dir = join(scratch, 'generated');
    const { exported } = await roundTrip(source, dir);
    expect(exported.stdout).to.match(
      new RegExp(
        `^wrote ${dir}/registry.yaml: 8 resource types, 30 resources, 6 projects, \\d+ links\\nwrote 10 tool files in ${dir}/tools\\n$`,
      ),
    );
    const files = Object.keys(readTree(dir));
    expect(files).to.include.members([
      'tools/gen--a%2D%2Db.yaml',
      'tools/%2Ehidden--tool.yaml',
      'tools/%2Dedge%2D--x.yaml',
      'tools/Upper--Case.Tool.yaml',
      'tools/gen--deep--er--tool.yaml',
    ]);
    // The generator did mix what it should: every binding mode, optional slots, aliases, types with two parents.
    const { listings } = await digest(source);
    const slots = listings.tools.edges.flatMap((e: any) => e.node.resourceSlots);
    expect(new Set(slots.map((s: any) => s.binding))).to.have.keys('CONTEXTUAL', 'STATIC', 'PARAMETER');
    expect(slots.some((s: any) => !s.required)).to.equal(true);
    expect(listings.resourceTypes.edges.some((e: any) => e.node.parentTypes.length > 1)).to.equal(true);
    expect(listings.resourceTypes.edges.some((e: any) => e.node.ancestors.length > 2)).to.equal(true);
    const text = readFileSync(join(dir, 'registry.yaml'), 'utf8');
    expect(text).to.contain('ünïcødé — 日本語 🎉 مرحبا');
    expect(text).to.match(/alias: /);

    // Registered again where it came from, the export is unchanged, entry by entry.
    const again = await runRegister(['--url', source.url, '--dry-run', dir]);
    expect(again.stdout).to.match(/^0 would be registered, 0 would be updated, \d+ unchanged, 0 failed, 0 skipped/m);
    expect(again.code).to.equal(0);
  });

  it('pages through listings longer than one page', async () => {
    source = await startServer(sqlite);
    const r = registryOf(source);
    await r.type('item');
    const names = Array.from({ length: 105 }, (_, i) => `bulk/item-${String(i).padStart(3, '0')}`);
    for (const name of names) await r.resource(name, 'item');
    const printed = await runExport(['--url', source.url]);
    expect(printed.code).to.equal(0);
    expect([...printed.stdout.matchAll(/- name: (bulk\/\S+)/g)].map((m) => m[1])).to.deep.equal(names);
  });

  it('replaces an earlier export in its folder, removing tool files of tools no longer registered', async () => {
    source = await startServer(sqlite, { demoData: true });
    const dir = join(scratch, 'earlier');
    mkdirSync(join(dir, 'tools'), { recursive: true });
    writeFileSync(join(dir, 'tools', 'gone--tool.yaml'), 'name: gone/tool\nresource_slots: []\n');
    writeFileSync(join(dir, 'tools', 'notes.txt'), 'kept');
    writeFileSync(join(dir, 'tools', '.hidden.yaml'), 'kept');
    writeFileSync(join(dir, 'README.md'), 'kept');
    const run = await runExport(['--url', source.url, '--out', dir]);
    expect(run.stdout).to.contain(`wrote 2 tool files in ${dir}/tools; removed 1 file of tools no longer registered\n`);
    expect(run.code).to.equal(0);
    expect(Object.keys(readTree(dir))).to.deep.equal([
      'README.md',
      'registry.yaml',
      'tools/.hidden.yaml',
      'tools/acme--migrate.yaml',
      'tools/demo--mixed.yaml',
      'tools/notes.txt',
    ]);
  });

  it('exits 2 on usage errors, 0 for --help, and 1 when the server cannot be reached', async () => {
    expect((await runExport(['--bogus'])).code).to.equal(2);
    expect((await runExport(['--url', 'ftp://127.0.0.1/x'])).code).to.equal(2);
    expect((await runExport(['stray'])).code).to.equal(2);
    const help = await runExport(['--help']);
    expect(help.stdout).to.contain('Usage: tool-registry export [options]');
    expect(help.code).to.equal(0);

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const run = await runExport(['--url', `http://127.0.0.1:${port}/graphql`]);
    expect(run.stderr).to.contain(`export: cannot reach http://127.0.0.1:${port}/graphql: ECONNREFUSED`);
    expect(run.stdout).to.equal('');
    expect(run.code).to.equal(1);
  });

  it('shows a progress bar on stderr when it is a terminal, and none when it is not', async function () {
    if (spawnSync('script', ['--version']).status !== 0) {
      console.log('      (skipped: no `script` command to give the CLI a terminal)');
      this.skip();
    }
    source = await startServer(sqlite, { demoData: true });
    const dir = join(scratch, 'with-progress');
    const command = `${JSON.stringify(process.execPath)} -r @swc-node/register src/cli.ts export --url ${source.url} --out ${dir}`;
    const onTerminal = await new Promise<string>((resolve, reject) => {
      const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
        cwd: repositoryRoot(),
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60_000,
      });
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.on('error', reject);
      child.on('close', () => resolve(out));
    });
    expect(onTerminal).to.match(/export [█░]+ \d+\/\d+ items {2}(resourceTypes|resources|projects|tools)/);
    expect(onTerminal).to.contain(`wrote ${join(dir, 'registry.yaml')}`);
    const piped = await runExport(['--url', source.url, '--out', `${dir}-piped`]);
    expect(piped.stdout + piped.stderr).not.to.match(/[█░]|items {2}/);
  });
});
