import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repositoryRoot } from '../../src/demo/demo-data';
import { sqlite } from '../support/backends';
import { runScript, type CliRun } from '../support/cli';
import { registryOf, RESOLVE } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const ROOT = repositoryRoot();

/** Runs `npm run register -- …` as npm does. */
const runCli = (args: string[], env: Record<string, string | undefined> = {}) => runScript('register', args, env);

const lines = (...l: string[]) => `${l.join('\n')}\n`;

const TOOL_COUNT = `{ tools { totalCount } }`;
/** The ids of the demo registry's things: an update keeps them. */
const IDS = `{ fs: resourceType(ref: "fs-directory") { id } repo: resource(ref: "acme/app-repo") { id }
  project(ref: "demo") { id } tool(ref: "demo/mixed") { id } }`;
/** What a run must leave as it was when it stores nothing: the counts, every committed edit, and the demo tool. */
const STATE = `{ tools { totalCount } resourceTypes { totalCount } resources { totalCount } projects { totalCount }
  changes { totalCount } tool(ref: "demo/mixed") { description resourceSlots { name resourceType { name } } } }`;
const TOOL = `query($ref: String!) { tool(ref: $ref) { id description resourceSlots { name access binding required resourceType { name } staticResource { name } } } }`;

describe('register CLI (npm run register) against a real server', function () {
  let scratch: string;
  let server: TestServer;

  /** Writes a file under the scratch folder and returns its path. */
  const write = (name: string, text: string) => {
    const path = join(scratch, name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
    return path;
  };

  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'register-cli-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));
  /** A second server, for the tests that need one. */
  let server2: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    await server2?.close();
    server2 = undefined;
  });

  it('registers every example file into an empty registry, and the examples resolve as the seed says', async () => {
    server = await startServer(sqlite);
    const run = await runCli(['--url', server.url, 'examples/']);
    expect(run.stdout.trim().split('\n')).to.deep.equal([
      'ok    examples/registry.yaml: 2 resource types, 2 resources, 1 project, 1 link registered',
      'ok    examples/shop.yaml: 1 resource type, 2 resources, 1 project, 2 links, 1 tool registered',
      'ok    examples/tools/contextual-repo.yaml: tool examples/contextual-repo registered',
      'ok    examples/tools/demo-mixed.yaml: tool demo/mixed registered',
      'ok    examples/tools/parameter-target.yaml: tool examples/parameter-target registered',
      'ok    examples/tools/static-config-dir.yaml: tool examples/static-config-dir registered',
      '17 registered, 0 updated, 0 unchanged, 0 failed, 0 skipped (6 files)',
    ]);
    expect(run.code).to.equal(0);
    expect(run.stderr).to.equal('');

    const types = await server.data(
      `{ resourceType(ref: "fs-directory") { parentTypes { name } } project(ref: "demo") { resources { alias resource { name } } } }`,
    );
    expect(types).to.deep.equal({
      resourceType: { parentTypes: [{ name: 'git-checkout' }] },
      project: { resources: [{ alias: 'repo', resource: { name: 'acme/app-repo' } }] },
    });
    const resolve = async (tool: string) =>
      (await server.data(RESOLVE, { tool, project: 'demo' })).resolveBindings.map((r: any) => [
        r.slotName,
        r.bindingMode,
        r.resource?.name ?? null,
        r.deferred,
        r.access,
      ]);
    expect(await resolve('demo/mixed')).to.deep.equal([
      ['repo', 'CONTEXTUAL', 'acme/app-repo', false, 'READ_WRITE'],
      ['config', 'STATIC', 'local/shared-config', false, 'READ_ONLY'],
      ['output', 'PARAMETER', null, true, 'WRITE_ONLY'],
    ]);
    expect(await resolve('examples/contextual-repo')).to.deep.equal([
      ['repo', 'CONTEXTUAL', 'acme/app-repo', false, 'READ_WRITE'],
    ]);
    expect(await resolve('examples/static-config-dir')).to.deep.equal([
      ['config_dir', 'STATIC', 'local/shared-config', false, 'READ_ONLY'],
    ]);
    expect(await resolve('examples/parameter-target')).to.deep.equal([
      ['target', 'PARAMETER', null, true, 'READ_WRITE'],
    ]);
  });

  it('registers every example tool against the demo registry (DEMO_DATA), demo/mixed (already there) unchanged', async () => {
    server = await startServer(sqlite, { demoData: true });
    const run = await runCli(['--url', server.url, '--update', 'examples/tools']);
    expect(run.stdout).to.contain('ok    examples/tools/demo-mixed.yaml: tool demo/mixed unchanged\n');
    expect(run.stdout).to.contain('3 registered, 0 updated, 1 unchanged, 0 failed, 0 skipped (4 files)');
    expect(run.code).to.equal(0);
    // The demo's demo/mixed and acme/migrate, and the three example tools.
    expect((await server.data(TOOL_COUNT)).tools.totalCount).to.equal(5);
  });

  it('reports a broken file with its line numbers, stores nothing from it, and exits 1', async () => {
    server = await startServer(sqlite, { demoData: true });
    const typo = write(
      'broken/typo.yaml',
      lines(
        'name: acme/lint',
        'resource_slots:',
        '  - name: repo',
        '    resource_type: git-checkout',
        '    access: read_only',
        '  - name: report',
        '    acces: write_only',
        '    resource_type: fs-directory',
        '    binding: PARAMETER',
      ),
    );
    const syntax = write(
      'broken/syntax.yaml',
      lines(
        'name: acme/syntax',
        'resource_slots:',
        '  - name: repo',
        '    resource_type: [git-checkout',
        '  - name: other',
      ),
    );
    const run = await runCli(['--url', server.url, typo, syntax]);
    expect(run.stdout).to.contain(`FAIL  ${typo}: 2 problems\n`);
    expect(run.stdout).to.contain(
      `        ${typo}:7:5: resource_slots[1]: unknown key 'acces' (did you mean 'access'?)\n`,
    );
    expect(run.stdout).to.contain(
      `        ${typo}:9:14: resource_slots[1].binding: 'PARAMETER' is not one of contextual, static, parameter (did you mean 'parameter'?)\n`,
    );
    expect(run.stdout).to.match(new RegExp(`FAIL  ${syntax}: 1 problem\\n        ${syntax}:5:\\d+: \\S`));
    expect(run.stdout).to.contain('0 registered, 0 updated, 0 unchanged, 2 failed, 0 skipped (2 files)');
    expect(run.code).to.equal(1);
    // The demo's two tools (demo/mixed, acme/migrate), and nothing more.
    expect((await server.data(TOOL_COUNT)).tools.totalCount).to.equal(2);
  });

  it("places the server's TOOL_VALIDATION_FAILED problems at their lines in the file", async () => {
    server = await startServer(sqlite, { demoData: true });
    const file = write(
      'server-problems.yaml',
      lines(
        'name: acme/bad-static',
        'resource_slots:',
        '  - name: config',
        '    resource_type: fs-directory',
        '    binding: static',
        '    static_resource: acme/app-repo',
        '  - name: scratch',
        '    resource_type: no-such-type',
      ),
    );
    const run = await runCli(['--url', server.url, file]);
    expect(run.stdout.trim().split('\n')).to.deep.equal([
      `FAIL  ${file}: tool acme/bad-static: TOOL_VALIDATION_FAILED (2 problems)`,
      `        ${file}:6:22: resource_slots[0].static_resource: slot 1 ('config') requires type 'fs-directory', but resource 'acme/app-repo' has type git-checkout, which does not reach it`,
      `        ${file}:8:20: resource_slots[1].resource_type: slot 2 ('scratch') requires resource type 'no-such-type', which is not registered`,
      '0 registered, 0 updated, 0 unchanged, 1 failed, 0 skipped (1 file)',
    ]);
    expect(run.code).to.equal(1);
  });

  it('--dry-run sends every change with dryRun: the checks of a real run, the impact, and nothing stored', async () => {
    server = await startServer(sqlite, { demoData: true });
    const bad = write(
      'dry/bad.yaml',
      lines(
        'name: acme/dry-bad',
        'resource_slots:',
        '  - name: config',
        '    resource_type: fs-directory',
        '    binding: static',
      ),
    );
    const changed = write(
      'dry/mixed.yaml',
      lines(
        'name: demo/mixed',
        'description: The repo slot now wants a directory.',
        'resource_slots:',
        '  - { name: repo, resource_type: fs-directory, access: read_write }',
        '  - { name: config, resource_type: fs-directory, binding: static, static_resource: local/shared-config }',
        '  - { name: output, resource_type: fs-directory, access: write_only, binding: parameter }',
      ),
    );
    const before = await server.data(STATE);

    const good = await runCli([
      '--url',
      server.url,
      '--dry-run',
      'examples/tools/contextual-repo.yaml',
      'examples/tools/static-config-dir.yaml',
      'examples/registry.yaml',
    ]);
    expect(good.stdout.trim().split('\n')).to.deep.equal([
      'ok    examples/registry.yaml: 2 resource types, 2 resources, 1 project, 1 link unchanged',
      'ok    examples/tools/contextual-repo.yaml: tool examples/contextual-repo would be registered',
      'ok    examples/tools/static-config-dir.yaml: tool examples/static-config-dir would be registered',
      '2 would be registered, 0 would be updated, 6 unchanged, 0 failed, 0 skipped (3 files; dry run, nothing stored)',
    ]);
    expect(good.code).to.equal(0);

    const failing = await runCli(['--url', server.url, '--dry-run', changed, bad]);
    expect(failing.stdout).to.contain(
      `FAIL  ${bad}: tool acme/dry-bad: TOOL_VALIDATION_FAILED (1 problem)\n        ${bad}:3:5: resource_slots[0].static_resource: slot 1 ('config') is STATIC but names no staticResource\n`,
    );
    expect(failing.stdout).to.contain(
      `FAIL  ${changed}: tool demo/mixed: CONFLICT: tool 'demo/mixed' exists and differs (description; resource_slots[0].resource_type: git-checkout → fs-directory); use --update to change it\n`,
    );
    expect(failing.code).to.equal(1);

    const update = await runCli(['--url', server.url, '--dry-run', '--update', changed]);
    expect(update.stdout.trim().split('\n')).to.deep.equal([
      `ok    ${changed}: tool demo/mixed would be updated`,
      '    impact: 1 binding change',
      '      demo/mixed in demo, slot repo: BOUND acme/app-repo → FAILED NO_MATCH',
      '0 would be registered, 1 would be updated, 0 unchanged, 0 failed, 0 skipped (1 file; dry run, nothing stored)',
    ]);
    expect(update.code).to.equal(0);

    expect(await server.data(STATE)).to.deep.equal(before);
  });

  it('leaves an identical re-registration unchanged: every entry unchanged, exit 0, no edit committed', async () => {
    server = await startServer(sqlite, { demoData: true });
    const first = await runCli(['--url', server.url, 'examples/']);
    expect(first.stdout).to.contain(
      'ok    examples/registry.yaml: 2 resource types, 2 resources, 1 project, 1 link unchanged\n',
    );
    expect(first.stdout).to.contain('3 registered, 0 updated, 14 unchanged, 0 failed, 0 skipped (6 files)');
    const edits = await server.data(`{ changes { totalCount } }`);
    expect(edits.changes.totalCount).to.be.greaterThan(0);

    for (const flags of [[], ['--update'], ['--dry-run'], ['--dry-run', '--update']]) {
      const again = await runCli(['--url', server.url, ...flags, 'examples/']);
      const would = flags.includes('--dry-run') ? 'would be ' : '';
      expect(again.stdout.trim().split('\n'), flags.join(' ')).to.deep.equal([
        'ok    examples/registry.yaml: 2 resource types, 2 resources, 1 project, 1 link unchanged',
        'ok    examples/shop.yaml: 1 resource type, 2 resources, 1 project, 2 links, 1 tool unchanged',
        'ok    examples/tools/contextual-repo.yaml: tool examples/contextual-repo unchanged',
        'ok    examples/tools/demo-mixed.yaml: tool demo/mixed unchanged',
        'ok    examples/tools/parameter-target.yaml: tool examples/parameter-target unchanged',
        'ok    examples/tools/static-config-dir.yaml: tool examples/static-config-dir unchanged',
        `0 ${would}registered, 0 ${would}updated, 17 unchanged, 0 failed, 0 skipped (6 files${would ? '; dry run, nothing stored' : ''})`,
      ]);
      expect(again.code).to.equal(0);
    }
    expect(await server.data(`{ changes { totalCount } }`)).to.deep.equal(edits);
  });

  it('reports every entry that differs as a CONFLICT and sends nothing; --update changes each kind in place', async () => {
    server = await startServer(sqlite, { demoData: true });
    const file = write(
      'differs/registry.yaml',
      lines(
        'resource_types:',
        '  - name: git-checkout',
        '    description: A checked-out git working tree.',
        '  - name: storage',
        '  - name: fs-directory',
        '    description: A directory on a file system.',
        '    parent_types: [storage, git-checkout]',
        'resources:',
        '  - name: local/shared-config',
        '    type: fs-directory',
        '  - name: acme/app-repo',
        '    type: fs-directory',
        "    description: The application's repository, now a plain directory.",
        'projects:',
        '  - name: demo',
        '    description: The demo project, described anew.',
        '    links:',
        '      - { resource: acme/app-repo, alias: code }',
        'tools:',
        '  - name: demo/mixed',
        '    resource_slots:',
        '      - { name: code, resource_type: fs-directory, access: read_write }',
        '      - { name: config, resource_type: fs-directory, binding: static, static_resource: local/shared-config }',
      ),
    );
    const ids = await server.data(IDS);
    const edits = await server.data(`{ changes { totalCount } }`);

    const conflict = await runCli(['--url', server.url, file]);
    const differs = (what: string, how: string) => `${what} exists and differs (${how}); use --update to change it`;
    expect(conflict.stdout.trim().split('\n')).to.deep.equal([
      `FAIL  ${file}: 7 of 8 entries not done`,
      '        resource type git-checkout: unchanged',
      '        resource type storage: skipped (not sent: entries of this file differ from the registry)',
      `        resource type fs-directory: CONFLICT: ${differs("resource type 'fs-directory'", 'parent_types: [git-checkout] → [storage, git-checkout]')}`,
      `        resource local/shared-config: CONFLICT: ${differs("resource 'local/shared-config'", 'description')}`,
      `        resource acme/app-repo: CONFLICT: ${differs("resource 'acme/app-repo'", 'type: git-checkout → fs-directory; description')}`,
      `        project demo: CONFLICT: ${differs("project 'demo'", 'description')}`,
      `        link demo → acme/app-repo as code: CONFLICT: ${differs("link 'demo → acme/app-repo'", 'alias: repo → code')}`,
      `        tool demo/mixed: CONFLICT: ${differs("tool 'demo/mixed'", 'description; resource_slots: [repo, config, output] → [code, config]')}`,
      '0 registered, 0 updated, 1 unchanged, 6 failed, 1 skipped (1 file)',
    ]);
    expect(conflict.code).to.equal(1);
    expect(await server.data(`{ changes { totalCount } }`)).to.deep.equal(edits);

    const updated = await runCli(['--url', server.url, '--update', file]);
    expect(updated.stdout.trim().split('\n')).to.deep.equal([
      `ok    ${file}: 1 resource type unchanged; 1 resource type registered; 1 resource type, 2 resources, 1 project, 1 link, 1 tool updated`,
      '        tool demo/mixed: updated',
      '            impact: 5 binding changes',
      '              demo/mixed (no project), slot output: DEFERRED → ABSENT',
      '              demo/mixed in demo, slot code: ABSENT → BOUND acme/app-repo',
      '              demo/mixed in demo, slot repo: BOUND acme/app-repo → ABSENT',
      '              demo/mixed in shop, slot code: ABSENT → FAILED NO_MATCH',
      '              demo/mixed in shop, slot repo: FAILED NO_MATCH → ABSENT',
      '1 registered, 6 updated, 1 unchanged, 0 failed, 0 skipped (1 file)',
    ]);
    expect(updated.code).to.equal(0);
    expect(await server.data(IDS)).to.deep.equal(ids);
    expect(
      await server.data(`{
        fs: resourceType(ref: "fs-directory") { parentTypes { name } }
        config: resource(ref: "local/shared-config") { description }
        repo: resource(ref: "acme/app-repo") { type { name } description }
        project(ref: "demo") { description resources { alias resource { name } } }
        tool(ref: "demo/mixed") { description resourceSlots { name resourceType { name } staticResource { name } } } }`),
    ).to.deep.equal({
      fs: { parentTypes: [{ name: 'storage' }, { name: 'git-checkout' }] },
      config: { description: null },
      repo: { type: { name: 'fs-directory' }, description: "The application's repository, now a plain directory." },
      project: {
        description: 'The demo project, described anew.',
        resources: [{ alias: 'code', resource: { name: 'acme/app-repo' } }],
      },
      tool: {
        description: null,
        resourceSlots: [
          { name: 'code', resourceType: { name: 'fs-directory' }, staticResource: null },
          { name: 'config', resourceType: { name: 'fs-directory' }, staticResource: { name: 'local/shared-config' } },
        ],
      },
    });

    const again = await runCli(['--url', server.url, file]);
    expect(again.stdout).to.contain(
      `ok    ${file}: 3 resource types, 2 resources, 1 project, 1 link, 1 tool unchanged\n`,
    );
    expect(again.code).to.equal(0);
  });

  it('--dry-run prints the binding impact of moving an alias and changes nothing; the real run moves it link by link', async () => {
    server = await startServer(sqlite);
    const r = registryOf(server);
    await r.type('database');
    await r.resource('prod/orders-db', 'database');
    await r.resource('prod/users-db', 'database');
    await r.project('shop');
    await r.link('shop', 'prod/orders-db', 'db');
    await r.link('shop', 'prod/users-db');
    await r.tool('acme/migrate', [{ name: 'db', resourceType: 'database', access: 'READ_WRITE' }]);
    // The file gives the alias to users-db first: the link that frees it must change before.
    const file = write(
      'move/shop.yaml',
      lines(
        'projects:',
        '  - name: shop',
        '    links:',
        '      - { resource: prod/users-db, alias: db }',
        '      - { resource: prod/orders-db }',
      ),
    );
    const SHOP = `{ changes { totalCount } project(ref: "shop") { resources { alias resource { name } } }
      resolveBindings(tool: "acme/migrate", project: "shop") { resource { name } } }`;
    const before = await server.data(SHOP);
    expect(before.resolveBindings).to.deep.equal([{ resource: { name: 'prod/orders-db' } }]);

    const dry = await runCli(['--url', server.url, '--dry-run', '--update', file]);
    expect(dry.stdout.trim().split('\n')).to.deep.equal([
      `ok    ${file}: 1 project unchanged; 1 link would be updated; ` +
        '1 link would be updated (takes an alias an earlier entry of this dry run frees; checked when it is free)',
      '        link shop → prod/orders-db: would be updated',
      '            impact: 1 binding change',
      '              acme/migrate in shop, slot db: BOUND prod/orders-db → FAILED AMBIGUOUS',
      '0 would be registered, 2 would be updated, 1 unchanged, 0 failed, 0 skipped (1 file; dry run, nothing stored)',
    ]);
    expect(dry.code).to.equal(0);
    expect(await server.data(SHOP)).to.deep.equal(before);

    const real = await runCli(['--url', server.url, '--update', file]);
    expect(real.stdout.trim().split('\n')).to.deep.equal([
      `ok    ${file}: 1 project unchanged; 2 links updated`,
      '        link shop → prod/orders-db: updated',
      '            impact: 1 binding change',
      '              acme/migrate in shop, slot db: BOUND prod/orders-db → FAILED AMBIGUOUS',
      '        link shop → prod/users-db as db: updated',
      '            impact: 1 binding change',
      '              acme/migrate in shop, slot db: FAILED AMBIGUOUS → BOUND prod/users-db',
      '0 registered, 2 updated, 1 unchanged, 0 failed, 0 skipped (1 file)',
    ]);
    expect(real.code).to.equal(0);
    expect((await server.data(SHOP)).resolveBindings).to.deep.equal([{ resource: { name: 'prod/users-db' } }]);
  });

  it('lists at most 10 binding changes under an entry and counts the rest', async () => {
    server = await startServer(sqlite);
    const r = registryOf(server);
    await r.type('database');
    await r.type('queue');
    await r.resource('prod/db', 'database');
    for (let i = 1; i <= 12; i++) {
      const project = `team-${String(i).padStart(2, '0')}`;
      await r.project(project);
      await r.link(project, 'prod/db');
    }
    await r.tool('acme/worker', [{ name: 'db', resourceType: 'database' }]);
    const file = write(
      'many/worker.yaml',
      lines('name: acme/worker', 'resource_slots:', '  - { name: db, resource_type: queue }'),
    );
    const dry = await runCli(['--url', server.url, '--dry-run', '--update', file]);
    expect(dry.stdout.trim().split('\n')).to.deep.equal([
      `ok    ${file}: tool acme/worker would be updated`,
      '    impact: 12 binding changes',
      ...Array.from(
        { length: 10 },
        (_, i) =>
          `      acme/worker in team-${String(i + 1).padStart(2, '0')}, slot db: BOUND prod/db → FAILED NO_MATCH`,
      ),
      '      … and 2 more',
      '0 would be registered, 1 would be updated, 0 unchanged, 0 failed, 0 skipped (1 file; dry run, nothing stored)',
    ]);
  });

  it('--update replaces a tool of the same name (same id, new slots); without it the name is a CONFLICT', async () => {
    server = await startServer(sqlite, { demoData: true });
    const file = write(
      'update/lint.yaml',
      lines(
        'name: acme/lint',
        'description: first',
        'resource_slots:',
        '  - { name: repo, resource_type: git-checkout }',
      ),
    );
    expect((await runCli(['--url', server.url, file])).code).to.equal(0);
    const first = (await server.data(TOOL, { ref: 'acme/lint' })).tool;

    write(
      'update/lint.yaml',
      lines(
        'name: acme/lint',
        'description: second',
        'resource_slots:',
        '  - name: report',
        '    resource_type: fs-directory',
        '    access: write_only',
        '    binding: parameter',
        '    required: false',
      ),
    );
    const conflict = await runCli(['--url', server.url, file]);
    expect(conflict.stdout).to.contain(
      `FAIL  ${file}: tool acme/lint: CONFLICT: tool 'acme/lint' exists and differs (description; resource_slots: [repo] → [report]); use --update to change it\n`,
    );
    expect(conflict.code).to.equal(1);
    expect((await server.data(TOOL, { ref: 'acme/lint' })).tool).to.deep.equal(first);

    const updated = await runCli(['--url', server.url, '--update', file]);
    expect(updated.stdout).to.contain(`ok    ${file}: tool acme/lint updated`);
    expect(updated.code).to.equal(0);
    expect((await server.data(TOOL, { ref: 'acme/lint' })).tool).to.deep.equal({
      id: first.id,
      description: 'second',
      resourceSlots: [
        {
          name: 'report',
          access: 'WRITE_ONLY',
          binding: 'PARAMETER',
          required: false,
          resourceType: { name: 'fs-directory' },
          staticResource: null,
        },
      ],
    });
  });

  it('runs a directory, registry files first, and ends with the summary line', async () => {
    server = await startServer(sqlite);
    write(
      'dir/a-tools.yaml',
      lines(
        '- { name: team/a, resource_slots: [{ name: src, resource_type: tmp-dir }] }',
        '- { name: team/b, resource_slots: [] }',
      ),
    );
    write(
      'dir/nested/c.yml',
      lines('name: team/c', 'resource_slots:', '  - { name: out, resource_type: tmp-dir, binding: parameter }'),
    );
    write('dir/nested/d.yaml', lines('name: team/d', 'resource_slot: []'));
    write(
      'dir/z-registry.yaml',
      lines(
        'resource_types:',
        '  - { name: tmp-dir, parent_types: [base-dir] }',
        '  - name: base-dir',
        'resources:',
        '  - { name: team/scratch, type: tmp-dir }',
        'projects:',
        '  - name: team',
        '    links: [{ resource: team/scratch, alias: src }]',
        'tools:',
        '  - { name: team/in-registry, resource_slots: [{ name: src, resource_type: base-dir }] }',
      ),
    );
    const dir = join(scratch, 'dir');
    const run = await runCli(['--url', server.url, dir]);
    expect(run.stdout.trim().split('\n')).to.deep.equal([
      `ok    ${dir}/z-registry.yaml: 2 resource types, 1 resource, 1 project, 1 link, 1 tool registered`,
      `ok    ${dir}/a-tools.yaml: 2 tools registered`,
      `ok    ${dir}/nested/c.yml: tool team/c registered`,
      `FAIL  ${dir}/nested/d.yaml: 2 problems`,
      `        ${dir}/nested/d.yaml:1:1: missing key 'resource_slots'`,
      `        ${dir}/nested/d.yaml:2:1: unknown key 'resource_slot' (did you mean 'resource_slots'?)`,
      '9 registered, 0 updated, 0 unchanged, 1 failed, 0 skipped (4 files)',
    ]);
    expect(run.code).to.equal(1);

    const empty = (server2 = await startServer(sqlite));
    const dry = await runCli(['--url', empty.url, '--dry-run', join(dir, 'z-registry.yaml')]);
    // The server checks base-dir and team; what needs them is only checked once they exist.
    expect(dry.stdout).to.contain(
      `ok    ${dir}/z-registry.yaml: 1 resource type, 1 project would be registered; ` +
        '1 resource type, 1 resource, 1 link, 1 tool would be registered (needs entries earlier in this dry run; checked when they exist)\n',
    );
    expect(dry.code).to.equal(0);
    expect(await empty.data(`{ tools { totalCount } resourceTypes { totalCount } }`)).to.deep.equal({
      tools: { totalCount: 0 },
      resourceTypes: { totalCount: 0 },
    });

    const resolved = (await server.data(RESOLVE, { tool: 'team/in-registry', project: 'team' })).resolveBindings;
    expect(resolved.map((r: any) => r.resource.name)).to.deep.equal(['team/scratch']);
  });

  it('stops a registry file at its first failure and counts the rest as skipped', async () => {
    server = await startServer(sqlite);
    const file = write(
      'stop/registry.yaml',
      lines(
        'resource_types:',
        '  - { name: child, parent_types: [missing-parent] }',
        'resources:',
        '  - { name: x/y, type: child }',
      ),
    );
    const run = await runCli(['--url', server.url, file]);
    expect(run.stdout.trim().split('\n')).to.deep.equal([
      `FAIL  ${file}: 2 of 2 entries not done`,
      "        resource type child: NOT_FOUND: parent type 'missing-parent' is not registered",
      '        resource x/y: skipped (not sent: an earlier entry of this file failed)',
      '0 registered, 0 updated, 0 unchanged, 1 failed, 1 skipped (1 file)',
    ]);
    expect(run.code).to.equal(1);
  });

  it('sends each batch before the one it follows has answered, and never applies one after a failure before it', async () => {
    server = await startServer(sqlite);
    // A type and 2,500 resources: batches of 1,000, 1,000 and 501 entries. Entry `failing` has an unknown type.
    const registryWith = (folder: string, failing: number) =>
      write(
        `${folder}/registry.yaml`,
        lines(
          'resource_types:',
          `  - { name: ${folder} }`,
          'resources:',
          ...Array.from(
            { length: 2500 },
            (_, i) => `  - { name: ${folder}/r${i + 1}, type: ${i + 1 === failing ? 'missing' : folder} }`,
          ),
        ),
      );
    const count = async (folder: string) =>
      (await server.data(`{ resources(filter: { nameContains: "${folder}/" }) { totalCount } }`)).resources.totalCount;
    // The failing entry in the second batch: the first committed; the third, sent to follow the second, was refused.
    const second = await runCli(['--url', server.url, '--no-progress', registryWith('later', 1500)]);
    expect(second.stdout).to.contain('1500 registered, 0 updated, 0 unchanged, 1 failed, 1000 skipped (1 file)');
    expect(second.code).to.equal(1);
    expect(await count('later')).to.equal(1499);
    // In the first: the second batch, sent to follow it, registered nothing, nor did the third.
    const first = await runCli(['--url', server.url, '--no-progress', registryWith('early', 500)]);
    expect(first.stdout).to.contain('500 registered, 0 updated, 0 unchanged, 1 failed, 2000 skipped (1 file)');
    expect(await count('early')).to.equal(499);
    const log = await server.data(`{ changes(first: 1) { totalCount } }`);
    expect(log.changes.totalCount, 'one change-log entry per entity registered').to.equal(2 + 1499 + 499);
  });

  it('sends a batch again on its own when another write came between it and the one it follows', async () => {
    server = await startServer(sqlite);
    const file = write(
      'busy/registry.yaml',
      lines(
        'resource_types:',
        '  - { name: busy }',
        'resources:',
        ...Array.from({ length: 4000 }, (_, i) => `  - { name: busy/r${i}, type: busy }`),
      ),
    );
    await server.data(`mutation { registerResourceType(input: { name: "other" }) { registryVersion } }`);
    // Another writer, all along: batches sent ahead keep finding its writes between them and the one they follow.
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        await server.data(
          `mutation { registerResource(input: { name: "other/w${written}", type: "other" }) { registryVersion } }`,
        );
        written++;
      }
    })();
    const run = await runCli(['--url', server.url, '--no-progress', file]);
    writing = false;
    await writer;
    expect(run.stdout).to.contain('4001 registered, 0 updated, 0 unchanged, 0 failed, 0 skipped (1 file)');
    expect(run.code).to.equal(0);
    const data = await server.data(`{ resources(filter: { nameContains: "busy/" }) { totalCount } }`);
    expect(data.resources.totalCount).to.equal(4000);
    expect(written, 'the other writer wrote while the command ran').to.be.greaterThan(0);
  });

  it('registers what comes before a failing entry of a batch, and the tool files after a failing one', async () => {
    server = await startServer(sqlite);
    const registry = write(
      'partial/registry.yaml',
      lines(
        'resource_types:',
        '  - { name: db }',
        'resources:',
        '  - { name: p/one, type: db }',
        '  - { name: p/two, type: missing }',
        '  - { name: p/three, type: db }',
      ),
    );
    const tool = (name: string, type: string) =>
      write(
        `partial/tools/${name}.yaml`,
        lines(`name: p/${name}`, 'resource_slots:', `  - { name: d, resource_type: ${type} }`),
      );
    tool('a', 'db');
    tool('b', 'nope');
    tool('c', 'db');
    const run = await runCli(['--url', server.url, registry, `${scratch}/partial/tools`]);
    expect(run.stdout).to.contain(
      [
        `FAIL  ${registry}: 2 of 4 entries not done`,
        '        resource type db: registered',
        '        resource p/one: registered',
        "        resource p/two: NOT_FOUND: no resource type 'missing' is registered",
        '        resource p/three: skipped (not sent: an earlier entry of this file failed)',
      ].join('\n'),
    );
    expect(run.stdout).to.contain(`ok    ${scratch}/partial/tools/a.yaml: tool p/a registered\n`);
    expect(run.stdout).to.match(/FAIL {2}.*partial\/tools\/b\.yaml: tool p\/b: TOOL_VALIDATION_FAILED/);
    expect(run.stdout).to.contain(`ok    ${scratch}/partial/tools/c.yaml: tool p/c registered\n`);
    expect(run.stdout).to.contain('4 registered, 0 updated, 0 unchanged, 2 failed, 1 skipped (4 files)');
    expect(run.code).to.equal(1);
    const state = await server.data(`{ resources { edges { node { name } } } tools { edges { node { name } } } }`);
    expect(state.resources.edges.map((e: { node: { name: string } }) => e.node.name)).to.deep.equal(['p/one']);
    expect(state.tools.edges.map((e: { node: { name: string } }) => e.node.name)).to.deep.equal(['p/a', 'p/c']);
  });

  it('sends the token from --token, else REGISTRY_TOKEN, else ADMIN_TOKEN, as a bearer token, and none when there is none', async () => {
    const seen: (string | undefined)[] = [];
    const nothing = { totalCount: 0, truncated: false, complete: true, changes: [] };
    const fake: Server = createServer((request, response) => {
      seen.push(request.headers.authorization);
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        // First the counts (the registry holds nothing, so no name is read), then the batch that registers.
        const { query } = JSON.parse(body) as { query: string };
        const none = { totalCount: 0 };
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({
            data: query.startsWith('mutation')
              ? { registerBatch: { registryVersion: 1, impact: nothing } }
              : query.startsWith('query Counts')
                ? { resourceType: none, resource: none, project: none, tool: none }
                : { a0: null },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/graphql`;
      const file = 'examples/tools/contextual-repo.yaml';
      expect((await runCli(['--url', url, '--token', 's3cret', file], { ADMIN_TOKEN: 'from-env' })).code).to.equal(0);
      expect((await runCli(['--url', url, file], { ADMIN_TOKEN: 'from-env' })).code).to.equal(0);
      expect(
        (await runCli(['--url', url, file], { REGISTRY_TOKEN: 'trg_registry', ADMIN_TOKEN: 'from-env' })).code,
      ).to.equal(0);
      expect((await runCli(['--url', url, file])).code).to.equal(0);
      expect(seen).to.deep.equal([
        'Bearer s3cret',
        'Bearer s3cret',
        'Bearer from-env',
        'Bearer from-env',
        'Bearer trg_registry',
        'Bearer trg_registry',
        undefined,
        undefined,
      ]);
    } finally {
      await new Promise((resolve) => fake.close(resolve));
    }
  });

  it('registers on a server that enforces tokens only with the admin token, dry runs included; the read token sees what is unchanged', async () => {
    const ADMIN = 'cli-admin-token-0123456789';
    const READER = 'cli-read-token-0123456789';
    server = await startServer(sqlite, { demoData: true, adminToken: ADMIN, readToken: READER });
    const file = 'examples/tools/contextual-repo.yaml';

    const anonymous = await runCli(['--url', server.url, file]);
    expect(anonymous.stdout).to.contain(`FAIL  ${file}: tool examples/contextual-repo: UNAUTHENTICATED: `);
    expect(anonymous.code).to.equal(1);
    const reader = await runCli(['--url', server.url, '--token', READER, file]);
    expect(reader.stdout).to.contain(`FAIL  ${file}: tool examples/contextual-repo: FORBIDDEN: `);
    expect(reader.code).to.equal(1);
    const dryAnonymous = await runCli(['--url', server.url, '--dry-run', file]);
    expect(dryAnonymous.stdout).to.contain(
      `FAIL  ${file}: tool examples/contextual-repo: UNAUTHENTICATED: reading the registry needs a token`,
    );
    expect(dryAnonymous.code).to.equal(1);
    const dryReader = await runCli(['--url', server.url, '--dry-run', file], { ADMIN_TOKEN: READER });
    expect(dryReader.stdout).to.contain(`FAIL  ${file}: tool examples/contextual-repo: FORBIDDEN: `);
    expect(dryReader.code).to.equal(1);
    const unchanged = await runCli(['--url', server.url, 'examples/tools/demo-mixed.yaml'], { ADMIN_TOKEN: READER });
    expect(unchanged.stdout).to.contain('ok    examples/tools/demo-mixed.yaml: tool demo/mixed unchanged');
    expect(unchanged.code).to.equal(0);
    const dryRun = await runCli(['--url', server.url, '--dry-run', file], { ADMIN_TOKEN: ADMIN });
    expect(dryRun.stdout).to.contain(`ok    ${file}: tool examples/contextual-repo would be registered`);
    expect(dryRun.code).to.equal(0);

    const admin = await runCli(['--url', server.url, file], { ADMIN_TOKEN: ADMIN });
    expect(admin.stdout).to.contain(`ok    ${file}: tool examples/contextual-repo registered`);
    expect(admin.code).to.equal(0);
  });

  it('says so and exits 1 when the server cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const run = await runCli(['--url', `http://127.0.0.1:${port}/graphql`, 'examples/tools']);
    expect(run.stderr).to.contain(`register: cannot reach http://127.0.0.1:${port}/graphql: ECONNREFUSED`);
    expect(run.stdout).to.contain('0 registered, 0 updated, 0 unchanged, 1 failed, 3 skipped (4 files)');
    expect(run.code).to.equal(1);
  });

  it('through npm run, reads paths relative to the folder the command was typed in', async () => {
    server = await startServer(sqlite, { demoData: true });
    write(
      'typed-here/tools/one.yaml',
      lines('name: here/one', 'resource_slots: [{ name: repo, resource_type: git-checkout }]'),
    );
    const { ADMIN_TOKEN: _token, INIT_CWD: _initCwd, npm_lifecycle_event: _event, ...env } = process.env;
    const run = await new Promise<CliRun>((resolve, reject) => {
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      const child = spawn(npm, ['--prefix', ROOT, 'run', '-s', 'register', '--', '--url', server.url, 'tools'], {
        cwd: join(scratch, 'typed-here'),
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60_000,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(run.stdout).to.contain('ok    tools/one.yaml: tool here/one registered');
    expect(run.code).to.equal(0);
  });

  it('exits 2 on usage errors, and 0 for --help', async () => {
    const none = await runCli([]);
    expect(none.stderr).to.contain('register: name at least one file or directory');
    expect(none.code).to.equal(2);
    expect((await runCli(['--bogus', 'examples/'])).code).to.equal(2);
    expect((await runCli(['--url', 'ftp://127.0.0.1/x', 'examples/'])).code).to.equal(2);
    mkdirSync(join(scratch, 'empty'));
    const empty = await runCli([join(scratch, 'empty')]);
    expect(empty.stderr).to.contain('register: no .yaml or .yml files in');
    expect(empty.code).to.equal(2);
    const help = await runCli(['--help']);
    expect(help.stdout).to.contain('Usage: tool-registry register [options] <file-or-dir>...');
    expect(help.stdout).to.contain('--update         Update what exists and differs');
    expect(help.code).to.equal(0);
  });

  it('shows a progress bar on a terminal, and none when the output is not one', async function () {
    if (spawnSync('script', ['--version']).status !== 0) {
      console.log('      (skipped: no `script` command to give the CLI a terminal)');
      this.skip();
    }
    server = await startServer(sqlite, { demoData: true });
    const command = `${JSON.stringify(process.execPath)} -r @swc-node/register src/cli.ts register --url ${server.url} --dry-run --update examples/tools`;
    const onTerminal = await new Promise<string>((resolve, reject) => {
      const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60_000,
      });
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.on('error', reject);
      child.on('close', () => resolve(out));
    });
    expect(onTerminal).to.match(/register [█░]+ \d\/4 files/);
    expect(onTerminal).to.contain(
      '3 would be registered, 0 would be updated, 1 unchanged, 0 failed, 0 skipped (4 files; dry run, nothing stored)',
    );
    const piped = await runCli(['--url', server.url, '--dry-run', '--update', 'examples/tools']);
    expect(piped.stdout + piped.stderr).not.to.match(/[█░]|files {2}/);
  });
});
