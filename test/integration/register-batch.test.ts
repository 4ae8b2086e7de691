// registerBatch: many registrations in one transaction. Each entry is checked, authorized and logged as its own
// mutation would be (the same registry and the same change log as one mutation per entry), the first failing entry
// rolls everything back and is named by its index, and the statements grow with the entries, not with round trips.
import { expect } from 'chai';
import { describeEachBackend, requirePostgres, sqlite } from '../support/backends';
import { databaseDigest } from '../support/digest';
import { gqlAt, twoServersOnOnePostgres, type ServerProcess } from '../support/process-server';
import { startServer, type TestServer } from '../support/server';

const BATCH = `mutation($i: RegisterBatchInput!, $d: Boolean) {
  registerBatch(input: $i, dryRun: $d) { dryRun registryVersion entries { kind entityId name } impact { totalCount } }
}`;

/** What each entry's own mutation is, with its input type. */
const SINGLE: Record<string, [string, string]> = {
  resourceType: ['registerResourceType', 'RegisterResourceTypeInput'],
  resource: ['registerResource', 'RegisterResourceInput'],
  project: ['createProject', 'CreateProjectInput'],
  link: ['linkResource', 'LinkResourceInput'],
  tool: ['registerTool', 'RegisterToolInput'],
};

type Entry = Record<string, Record<string, unknown>>;

/** A small registry in registration order: types (one the child of another), resources, a project, links and tools. */
function entries(prefix = ''): Entry[] {
  return [
    { resourceType: { name: `${prefix}store` } },
    { resourceType: { name: `${prefix}db`, parentTypes: [`${prefix}store`], description: 'a database' } },
    { resource: { name: `${prefix}acme/orders-db`, type: `${prefix}db` } },
    { resource: { name: `${prefix}acme/cache`, type: `${prefix}store` } },
    { project: { name: `${prefix}acme/app`, description: 'the app' } },
    { link: { project: `${prefix}acme/app`, resource: `${prefix}acme/orders-db`, alias: 'orders' } },
    { link: { project: `${prefix}acme/app`, resource: `${prefix}acme/cache` } },
    {
      tool: {
        name: `${prefix}acme/report`,
        resourceSlots: [
          { name: 'orders', resourceType: `${prefix}store` },
          { name: 'fixed', resourceType: `${prefix}db`, binding: 'STATIC', staticResource: `${prefix}acme/orders-db` },
        ],
      },
    },
  ];
}

/** A type `<p>-t`, resources `<p>-r-<name>` of it, one after another, and a project `<p>-p`. */
function run(prefix: string, names: string[]): Entry[] {
  return [
    { resourceType: { name: `${prefix}-t` } },
    ...names.map((name) => ({ resource: { name: `${prefix}-r-${name}`, type: `${prefix}-t` } })),
    { project: { name: `${prefix}-p` } },
  ];
}

/** Links of run()'s resources to its project, one after another: [resource name, alias]. */
function links(prefix: string, pairs: [string, string | null][]): Entry[] {
  return pairs.map(([name, alias]) => ({ link: { project: `${prefix}-p`, resource: `${prefix}-r-${name}`, alias } }));
}

/** A tool with one slot of a type: CONTEXTUAL, or STATIC without its resource (which fails its checks). */
function tool(name: string, type: string, broken = false): Entry {
  return {
    tool: { name, resourceSlots: [{ name: 's', resourceType: type, ...(broken ? { binding: 'STATIC' } : {}) }] },
  };
}

/** The change log in its order, without what differs between two runs (ids, times, versions). */
async function logOf(server: TestServer) {
  const data = await server.data<{ changes: { edges: { node: Record<string, unknown> }[] } }>(
    `{ changes(first: 100) { edges { node { operation kind entityName summary impactCount impactComplete actor } } } }`,
  );
  return data.changes.edges.map((e) => e.node);
}

async function registryOf(server: TestServer) {
  return server.data(`{
    resourceTypes(first: 100) { edges { node { name description parentTypes { name } } } }
    resources(first: 100) { edges { node { name shortName description type { name } } } }
    projects(first: 100) { edges { node { name description resources { alias resource { name } } } } }
    tools(first: 100) { edges { node { name resourceSlots { name access binding required resourceType { name } staticResource { name } } } } }
  }`);
}

describeEachBackend('registerBatch', (backend) => {
  let server: TestServer;
  let reference: TestServer;

  before(async () => {
    server = await startServer(backend);
    reference = await startServer(backend);
  });
  after(async () => {
    await server?.close();
    await reference?.close();
  });

  it('registers every entry in one version, each logged as its own mutation, the same as one mutation per entry', async () => {
    const before = (await server.app.versioning.current()).version;
    const data = await server.data(BATCH, { i: { entries: entries() } });
    const payload = data.registerBatch;
    expect(payload.dryRun).to.equal(false);
    expect(payload.registryVersion).to.equal(before + 1);
    expect(payload.entries.map((e: { kind: string; name: string }) => `${e.kind} ${e.name}`)).to.deep.equal([
      'RESOURCE_TYPE store',
      'RESOURCE_TYPE db',
      'RESOURCE acme/orders-db',
      'RESOURCE acme/cache',
      'PROJECT acme/app',
      'LINK acme/app',
      'LINK acme/app',
      'TOOL acme/report',
    ]);
    expect(payload.entries.every((e: { entityId: string | null }) => typeof e.entityId === 'string')).to.equal(true);

    for (const entry of entries()) {
      const [field, value] = Object.entries(entry)[0];
      const [operation, inputType] = SINGLE[field];
      await reference.data(`mutation($i: ${inputType}!) { ${operation}(input: $i) { dryRun } }`, { i: value });
    }
    expect(await registryOf(server)).to.deep.equal(await registryOf(reference));
    const log = await logOf(server);
    expect(log).to.deep.equal(await logOf(reference));
    expect(log.map((e) => e.operation)).to.deep.equal(entries().map((e) => SINGLE[Object.keys(e)[0]][0]));

    const versions = await server.data<{ changes: { edges: { node: { version: number } }[] } }>(
      `{ changes(first: 100) { edges { node { version } } } }`,
    );
    expect(new Set(versions.changes.edges.map((e) => e.node.version))).to.deep.equal(new Set([before + 1]));

    const bound = await server.data(
      `{ resolveBindings(tool: "acme/report", project: "acme/app") { slotName resource { name } } }`,
    );
    expect(bound.resolveBindings).to.deep.equal([
      { slotName: 'orders', resource: { name: 'acme/orders-db' } },
      { slotName: 'fixed', resource: { name: 'acme/orders-db' } },
    ]);
  });

  it('rolls everything back at the first failing entry, which its error names by index and code', async () => {
    const cases: [Entry[], number, string, RegExp][] = [
      [[...entries('b-').slice(0, 3), { resource: { name: 'b-x', type: 'b-nope' } }], 3, 'NOT_FOUND', /b-nope/],
      [[...entries('c-').slice(0, 2), { resourceType: { name: 'c-store' } }], 2, 'CONFLICT', /c-store/],
      [
        [
          ...entries('d-').slice(0, 7),
          { tool: { name: 'd-t', resourceSlots: [{ name: 's', resourceType: 'd-db', binding: 'STATIC' }] } },
        ],
        7,
        'TOOL_VALIDATION_FAILED',
        /staticResource/,
      ],
      [[{ project: { name: 'e-p' } }, { project: { name: 'E-P' } }], 1, 'CONFLICT', /e-p|E-P/],
      [
        [{ project: { name: 'f-p' } }, { project: { name: 'f-q' }, resource: { name: 'f-r', type: 'store' } }],
        1,
        'BAD_USER_INPUT',
        /exactly one/,
      ],
      [[{ project: { name: 'g-p' } }, {}], 1, 'BAD_USER_INPUT', /exactly one/],
      [[{ link: { project: 'acme/app', resource: 'acme/orders-db' } }], 0, 'CONFLICT', /already linked/],
      // Runs of resources and of links to one project (one step each, one statement for many entries) fail where
      // step by step would, at the same entry: the first that fails.
      [[...run('h', ['a', 'b', 'A'])], 3, 'CONFLICT', /h-r-A|h-r-a/],
      [[...run('i', ['a', 'b', 'a']), { resource: { name: 'i-r-x', type: 'nope' } }], 3, 'CONFLICT', /i-r-a/],
      [
        [
          ...run('j', ['a']),
          { resource: { name: 'j-r-x', type: 'nope' } },
          { resource: { name: 'j-r-a', type: 'j-t' } },
        ],
        3,
        'NOT_FOUND',
        /nope/,
      ],
      [
        [{ resource: { name: 'acme/orders-db', type: 'store' } }, { resource: { name: 'k-r', type: 'store' } }],
        0,
        'CONFLICT',
        /acme\/orders-db/,
      ],
      [
        [
          ...run('l', ['a', 'b']),
          ...links('l', [
            ['a', 'x'],
            ['b', 'x'],
          ]),
        ],
        5,
        'CONFLICT',
        /alias 'x'/,
      ],
      [
        [
          ...run('m', ['a', 'b']),
          ...links('m', [
            ['a', null],
            ['b', null],
            ['a', 'y'],
          ]),
        ],
        6,
        'CONFLICT',
        /already linked/,
      ],
      [
        [
          ...run('n', ['a']),
          ...links('n', [
            ['a', null],
            ['zz', null],
          ]),
        ],
        4,
        'NOT_FOUND',
        /n-r-zz/,
      ],
      [
        [{ project: { name: 'q-p1' } }, { project: { name: 'q-p2' } }, { project: { name: 'Q-P1' } }],
        2,
        'CONFLICT',
        /q-p1|Q-P1/,
      ],
      [
        [{ resourceType: { name: 'r-t' } }, tool('r-a', 'r-t'), tool('r-b', 'r-t', true), tool('R-A', 'r-t')],
        2,
        'TOOL_VALIDATION_FAILED',
        /staticResource/,
      ],
      [
        [{ resourceType: { name: 's-t' } }, tool('s-a', 's-t'), tool('S-A', 's-t'), tool('s-c', 's-t', true)],
        2,
        'CONFLICT',
        /s-a|S-A/,
      ],
      [
        [
          ...links('o', [
            ['a', null],
            ['b', null],
          ]),
        ],
        0,
        'NOT_FOUND',
        /o-p/,
      ],
      // A run of links spans projects: each project's links and aliases are its own, and each entry's project and
      // resource are checked in that order, as linkResource checks them.
      [
        [
          ...run('u', ['a', 'b']),
          { project: { name: 'u-p2' } },
          { link: { project: 'u-p', resource: 'u-r-a', alias: 'x' } },
          { link: { project: 'u-p2', resource: 'u-r-a', alias: 'x' } },
          { link: { project: 'u-p2', resource: 'u-r-b', alias: 'x' } },
        ],
        7,
        'CONFLICT',
        /alias 'x'.*u-p2/,
      ],
      [
        [
          ...run('v', ['a']),
          { link: { project: 'v-p', resource: 'v-r-a' } },
          { link: { project: 'v-nope', resource: 'v-r-zz' } },
        ],
        4,
        'NOT_FOUND',
        /v-nope/,
      ],
      [
        [
          ...run('w', ['a']),
          { project: { name: 'w-p2' } },
          { link: { project: 'w-p', resource: 'w-r-a' } },
          { link: { project: 'w-p2', resource: 'w-r-a' } },
          { link: { project: 'w-p', resource: 'w-r-a', alias: 'z' } },
        ],
        6,
        'CONFLICT',
        /already linked to project 'w-p'/,
      ],
      [
        [
          ...run('p', ['a', 'b']),
          ...links('p', [
            ['a', 'orders'],
            ['b', null],
          ]),
          { link: { project: 'acme/app', resource: 'p-r-b', alias: 'orders' } },
        ],
        6,
        'CONFLICT',
        /alias 'orders'/,
      ],
    ];
    for (const [batch, index, code, message] of cases) {
      const digest = await databaseDigest(server);
      const version = (await server.app.versioning.current()).version;
      for (const d of [true, false]) {
        const { body } = await server.gql(BATCH, { i: { entries: batch }, d });
        const error = body.errors?.[0];
        expect(error?.extensions?.code, JSON.stringify(body)).to.equal(code);
        expect(error?.extensions?.entry, JSON.stringify(body)).to.equal(index);
        expect(error?.message)
          .to.match(new RegExp(`^entry ${index}: `))
          .and.match(message);
        expect(body.data, 'no data').to.equal(null);
      }
      expect(await databaseDigest(server), 'nothing stored').to.equal(digest);
      expect((await server.app.versioning.current()).version).to.equal(version);
    }
  });

  it('checks each entry’s grammar at the edge, with the full path, and caps a batch at 1,000 entries', async () => {
    const { body } = await server.gql(BATCH, {
      i: { entries: [{ project: { name: 'fine' } }, { tool: { name: 'Bad Name!', resourceSlots: [] } }] },
    });
    expect(body.errors![0].extensions?.code).to.equal('BAD_USER_INPUT');
    expect(body.errors![0].extensions?.problems.map((p: { field: string }) => p.field)).to.deep.equal([
      'input.entries[1].tool.name',
    ]);
    const many = Array.from({ length: 1001 }, (_, i) => ({ project: { name: `many/p${i}` } }));
    const { body: tooMany } = await server.gql(BATCH, { i: { entries: many } });
    expect(tooMany.errors![0].extensions?.code).to.equal('BAD_USER_INPUT');
    expect(tooMany.errors![0].message).to.match(/at most 1000/);
    expect((await server.data(`{ project(ref: "many/p0") { id } }`)).project).to.equal(null);
  });

  it('as a dry run checks everything, stores nothing and gives no ids', async () => {
    const digest = await databaseDigest(server);
    const data = await server.data(BATCH, { i: { entries: entries('dry-') }, d: true });
    expect(data.registerBatch.dryRun).to.equal(true);
    expect(data.registerBatch.entries).to.have.length(8);
    expect(data.registerBatch.entries.every((e: { entityId: string | null }) => e.entityId === null)).to.equal(true);
    expect(await databaseDigest(server)).to.equal(digest);
  });

  it('shares the thread: a query sent while a batch of 1,000 entries runs is answered before the batch ends', async () => {
    const batch = Array.from({ length: 1000 }, (_, i) => ({ project: { name: `slice/p${i}` } }));
    const order: string[] = [];
    const before = server.statements();
    const running = server.data(BATCH, { i: { entries: batch } }).then(() => order.push('batch'));
    // The server runs in this process: once the batch has started writing, ask for something trivial.
    while (server.statements() - before < 3) await new Promise((resolve) => setImmediate(resolve));
    await server.data('{ __typename }', {}, { 'cache-control': 'no-cache' });
    order.push('query');
    await running;
    expect(order).to.deep.equal(['query', 'batch']);
  });

  it('costs a bounded number of statements per entry, in one transaction', async () => {
    const count = 150;
    const batch: Entry[] = [{ resourceType: { name: 'cost' } }, { project: { name: 'cost/p' } }];
    for (let i = 0; i < count; i++) {
      batch.push({ resource: { name: `cost/r${i}`, type: 'cost' } });
      batch.push({ link: { project: 'cost/p', resource: `cost/r${i}` } });
    }
    const before = server.statements();
    await server.data(BATCH, { i: { entries: batch } });
    const perEntry = (server.statements() - before) / batch.length;
    // A resource takes its insert (1); a link its two lookups, the project’s links and its insert (4), and the
    // project’s time once for the whole batch.
    expect(perEntry).to.be.at.most(2.6);
  });

  it('reads the tools a run of links can reach once for the run, by type, however many types its resources have', async () => {
    const types = 10;
    const setup: Entry[] = [{ project: { name: 'reach/p' } }];
    for (let t = 0; t < types; t++) {
      setup.push({ resourceType: { name: `reach-t${t}` } });
      setup.push({ tool: { name: `reach/tool${t}`, resourceSlots: [{ name: 'x', resourceType: `reach-t${t}` }] } });
      for (let i = 0; i < 2; i++) setup.push({ resource: { name: `reach/r${t}-${i}`, type: `reach-t${t}` } });
    }
    await server.data(BATCH, { i: { entries: setup } });
    const links: Entry[] = [];
    for (let i = 0; i < 2; i++) {
      for (let t = 0; t < types; t++) links.push({ link: { project: 'reach/p', resource: `reach/r${t}-${i}` } });
    }
    server.app.db.counter.startRecording();
    const data = await server.data(BATCH, { i: { entries: links } });
    const reads = server.app.db.counter
      .stopRecording()
      .filter((sql) => /CONTEXTUAL/.test(sql) && /resource_slot/.test(sql));
    // Ten types, each link reaching the tools of one (a step per link read them once per type: ten reads).
    expect(reads).to.have.length(1);
    expect(data.registerBatch.impact.totalCount).to.equal(types);
  });

  it('runs a batch sent with after only right after the keyed batch it names: never after that one failed, nor after another write', async () => {
    const make = (prefix: string, order: Record<string, string>) => ({
      entries: [{ resourceType: { name: `${prefix}-t` } }, { resource: { name: `${prefix}-r`, type: `${prefix}-t` } }],
      ...order,
    });
    const refused = async (input: Record<string, unknown>, code: string) => {
      const digest = await databaseDigest(server);
      const version = (await server.app.versioning.current()).version;
      const { body } = await server.gql(BATCH, { i: input });
      const error = body.errors?.[0];
      expect(error?.extensions?.code, JSON.stringify(body)).to.equal(code);
      expect(error?.extensions?.entry, 'not one entry’s failure').to.equal(undefined);
      expect(body.data, 'no data').to.equal(null);
      expect(await databaseDigest(server), 'nothing stored').to.equal(digest);
      expect((await server.app.versioning.current()).version).to.equal(version);
      return error!.message;
    };
    // A chain: each batch follows the one before it.
    await server.data(BATCH, { i: make('ka', { key: 'ka' }) });
    await server.data(BATCH, { i: make('kb', { key: 'kb', after: 'ka' }) });
    await server.data(BATCH, { i: make('kc', { after: 'kb' }) });
    // kc had no key: the last write is not kb any more.
    expect(await refused(make('kd', { after: 'kb' }), 'PRECONDITION_FAILED')).to.match(/'kb' is not the last write/);
    // A keyed batch that fails is not the last write: the one sent after it is refused, not applied.
    await server.data(BATCH, { i: make('ke', { key: 'ke' }) });
    const failing = { entries: [{ resource: { name: 'kf-r', type: 'nope' } }], key: 'kf', after: 'ke' };
    const { body } = await server.gql(BATCH, { i: failing });
    expect(body.errors?.[0]?.extensions?.code).to.equal('NOT_FOUND');
    await refused(make('kg', { after: 'kf' }), 'PRECONDITION_FAILED');
    // ke is still the last write: what followed it failed, or was refused, and committed nothing.
    await server.data(BATCH, { i: make('kh', { key: 'kh', after: 'ke' }) });
    // Another write in between (here a single mutation) breaks the chain.
    await server.data(`mutation { registerResource(input: { name: "ki-r", type: "kh-t" }) { registryVersion } }`);
    await refused(make('kj', { after: 'kh' }), 'PRECONDITION_FAILED');
    // A dry run records no key.
    await server.data(BATCH, { i: make('kk', { key: 'kk' }), d: true });
    await refused(make('kl', { after: 'kk' }), 'PRECONDITION_FAILED');
    // A malformed key is BAD_USER_INPUT.
    expect(await refused(make('km', { key: 'a b' }), 'BAD_USER_INPUT')).to.match(/key must be 1 to 64/);
    await refused(make('kn', { after: 'x'.repeat(65) }), 'BAD_USER_INPUT');
  });

  it('registers runs of resources, links (to one project or many), projects and tools in a few statements for all of them', async () => {
    const count = 150;
    const batch: Entry[] = [{ resourceType: { name: 'runs' } }, { project: { name: 'runs/p' } }];
    for (let i = 0; i < count; i++) batch.push({ resource: { name: `runs/r${i}`, type: 'runs' } });
    for (let i = 0; i < count; i++) batch.push({ link: { project: 'runs/p', resource: `runs/r${i}`, alias: `a${i}` } });
    for (let i = 0; i < count; i++) batch.push({ project: { name: `runs/p${i}` } });
    for (let i = 0; i < count; i++) batch.push({ link: { project: `runs/p${i}`, resource: `runs/r${i}` } });
    for (let i = 0; i < count; i++) {
      batch.push({
        tool: {
          name: `runs/t${i}`,
          resourceSlots: [
            { name: 'in', resourceType: 'runs' },
            { name: 'fixed', resourceType: 'runs', binding: 'STATIC', staticResource: `runs/r${i}` },
          ],
        },
      });
    }
    const before = server.statements();
    const data = await server.data(BATCH, { i: { entries: batch } });
    const statements = server.statements() - before;
    expect(data.registerBatch.entries).to.have.length(batch.length);
    // 150 resources in two inserts (one on PostgreSQL); 150 links to one project in runs of at most 64 (each: the
    // projects, the resources and the projects' links read, the tools the resources' types reach, one insert),
    // the project's time once; 150 projects in inserts of 64; 150 links to 150 projects in runs of 64 the same way
    // (each run: the projects' times in one statement); 150 tools in runs of 64 (each: the static resources read,
    // the tools and their slots inserted); the change log in inserts of 100 (1,000 on PostgreSQL); the version.
    // Measured: 60 on SQLite, 51 on PostgreSQL. A step per entry took 1 for each resource and project, 4 or 5 for
    // each link and 3 for each tool: about 1,700; with runs of links to one project only, the links to 150
    // projects alone took 750.
    expect(statements).to.be.at.most(60);
    const linked = await server.data<{ project: { resources: { alias: string; resource: { name: string } }[] } }>(
      `{ project(ref: "runs/p") { resources { alias resource { name } } } }`,
    );
    expect(linked.project.resources).to.have.length(count);
    expect(linked.project.resources.every((l) => l.alias === `a${l.resource.name.slice('runs/r'.length)}`)).to.equal(
      true,
    );
    const other = await server.data<{ project: { resources: { resource: { name: string } }[] } }>(
      `{ project(ref: "runs/p77") { resources { resource { name } } } }`,
    );
    expect(other.project.resources.map((l) => l.resource.name)).to.deep.equal(['runs/r77']);
    const log = await server.data<{ changes: { totalCount: number } }>(
      `{ changes(first: 1, filter: { sinceVersion: ${data.registerBatch.registryVersion - 1} }) { totalCount } }`,
    );
    expect(log.changes.totalCount).to.equal(batch.length);
    const made = await server.data<{
      tool: { resourceSlots: { name: string; staticResource: { name: string } | null }[] };
    }>(`{ tool(ref: "runs/t7") { resourceSlots { name staticResource { name } } } }`);
    expect(made.tool.resourceSlots).to.deep.equal([
      { name: 'in', staticResource: null },
      { name: 'fixed', staticResource: { name: 'runs/r7' } },
    ]);
  });
});

describe('registerBatch and access', () => {
  const ADMIN = 'admin-token-0123456789';
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  let server: TestServer;
  let editor: string;

  before(async () => {
    server = await startServer(sqlite, { adminToken: ADMIN });
    await server.data(`mutation { registerResourceType(input: { name: "db" }) { dryRun } }`, {}, bearer(ADMIN));
    const made = await server.data(
      `mutation($i: CreateApiTokenInput!) { createApiToken(input: $i) { secret } }`,
      { i: { name: 'acme-editor', grants: [{ role: 'EDITOR', namespace: 'acme' }] } },
      bearer(ADMIN),
    );
    editor = made.createApiToken.secret;
    await server.data(`{ viewer { principal } }`, {}, bearer(editor));
  });
  after(() => server?.close());

  it('authorizes each entry by its own mutation’s rule: another team’s entry, or a global one, refuses the whole batch', async () => {
    for (const [entry, namespace] of [
      [{ resource: { name: 'globex/db', type: 'db' } }, 'globex'],
      [{ resourceType: { name: 'cache' } }, '*'],
    ] as const) {
      const digest = await databaseDigest(server);
      const { body } = await server.gql(
        BATCH,
        { i: { entries: [{ resource: { name: 'acme/db', type: 'db' } }, entry] } },
        bearer(editor),
      );
      expect(body.errors![0].extensions?.code, JSON.stringify(body)).to.equal('FORBIDDEN');
      expect(body.errors![0].extensions?.entry).to.equal(1);
      expect(body.errors![0].extensions?.namespaces).to.deep.equal([namespace]);
      expect(await databaseDigest(server)).to.equal(digest);
    }
    const data = await server.data(
      BATCH,
      { i: { entries: [{ resource: { name: 'acme/db', type: 'db' } }, { project: { name: 'acme/app' } }] } },
      bearer(editor),
    );
    expect(data.registerBatch.entries).to.have.length(2);
  });

  it('in a run of entries, reports the first that fails: a refused one, or one before it that fails its checks', async () => {
    for (const [batch, index, code] of [
      [
        [
          { resource: { name: 'acme/run-a', type: 'db' } },
          { resource: { name: 'ACME/run-a', type: 'db' } },
          { resource: { name: 'globex/run', type: 'db' } },
        ],
        1,
        'CONFLICT',
      ],
      [
        [
          { resource: { name: 'acme/run-b', type: 'db' } },
          { resource: { name: 'globex/run', type: 'db' } },
          { resource: { name: 'ACME/run-b', type: 'db' } },
        ],
        1,
        'FORBIDDEN',
      ],
      [
        [
          { resource: { name: 'acme/run-c', type: 'db' } },
          { resource: { name: 'globex/run', type: 'db' } },
          { resource: { name: 'acme/run-d', type: 'nope' } },
        ],
        1,
        'FORBIDDEN',
      ],
    ] as const) {
      const digest = await databaseDigest(server);
      const { body } = await server.gql(BATCH, { i: { entries: batch } }, bearer(editor));
      expect(body.errors![0].extensions?.code, JSON.stringify(body)).to.equal(code);
      expect(body.errors![0].extensions?.entry, JSON.stringify(body)).to.equal(index);
      expect(await databaseDigest(server)).to.equal(digest);
    }
  });
});

describe('registerBatch after: across two instances on one PostgreSQL (real processes)', function () {
  this.timeout(120_000);
  let a: ServerProcess;
  let b: ServerProcess;
  const MUTATION = `mutation($i: RegisterBatchInput!) { registerBatch(input: $i) { registryVersion } }`;
  const batch = (name: string, order: { key?: string; after?: string }) => ({
    entries: [{ resource: { name, type: 't' } }],
    ...order,
  });

  before(async function () {
    await requirePostgres(this);
    [a, b] = await twoServersOnOnePostgres();
    await gqlAt(a.url, `mutation { registerResourceType(input: { name: "t" }) { dryRun } }`);
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
  });

  it('follows a batch committed on the other instance, and never one with a write of either instance between', async () => {
    // A chain sent one after another, each to the other instance: every batch follows the one before it.
    let after: string | undefined;
    for (let i = 0; i < 6; i++) {
      const { body } = await gqlAt((i % 2 ? b : a).url, MUTATION, { i: batch(`seq/${i}`, { key: `seq-${i}`, after }) });
      expect(body.errors, JSON.stringify(body)).to.equal(undefined);
      after = `seq-${i}`;
    }
    // Another write on the other instance comes between: refused.
    await gqlAt(b.url, `mutation { registerResource(input: { name: "between", type: "t" }) { registryVersion } }`);
    const refused = (await gqlAt(a.url, MUTATION, { i: batch('seq/late', { after }) })).body;
    expect(refused.errors?.[0]?.extensions?.code).to.equal('PRECONDITION_FAILED');

    // Two chains of 20 batches, beside writes on both instances. Each batch is sent while the one it follows is
    // still on its way, to the other instance, as tool-registry register sends them (one refused is sent again on
    // its own, and the next follows that): whichever commit with an `after`, each committed right after its batch.
    const sent: { key: string; after?: string; name: string; answer: Promise<{ body: any }> }[] = [];
    const send = (c: number, i: number, after?: string, key = `c${c}-${i}`) => {
      const name = `chain/${c}/${i}`;
      const answer = gqlAt(((c + i) % 2 ? a : b).url, MUTATION, { i: batch(name, { key, after }) });
      sent.push({ key, after, name, answer });
      return { key, answer };
    };
    const chain = async (c: number) => {
      let current = send(c, 0);
      for (let i = 0; i < 20; i++) {
        const next = i < 19 ? send(c, i + 1, current.key) : null;
        const { body } = await current.answer;
        // Refused (another write came between): again on its own, under the same key, which `next` follows.
        if (!body.data?.registerBatch) await send(c, i, undefined, current.key).answer;
        if (!next) break;
        current = next;
      }
    };
    const others = Array.from({ length: 10 }, (_, i) =>
      gqlAt(
        (i % 2 ? a : b).url,
        `mutation { registerResource(input: { name: "other/${i}", type: "t" }) { registryVersion } }`,
      ),
    );
    await Promise.all([...others, chain(0), chain(1)]);
    // The version each key committed (a key commits at most once), and each request's own answer.
    const versionOf = new Map<string, number>();
    const answers = await Promise.all(sent.map(async (request) => ({ ...request, body: (await request.answer).body })));
    for (const { key, body } of answers) {
      if (body.data?.registerBatch) versionOf.set(key, body.data.registerBatch.registryVersion);
    }
    let followed = 0;
    let alone = 0;
    let refusals = 0;
    for (const { key, after, body } of answers) {
      if (!body.data?.registerBatch) {
        expect(body.errors?.[0]?.extensions?.code, JSON.stringify(body)).to.equal('PRECONDITION_FAILED');
        refusals++;
      } else if (after === undefined) alone++;
      else {
        expect(versionOf.get(after), `${key} committed right after ${after}`).to.equal(versionOf.get(key)! - 1);
        followed++;
      }
    }
    expect(followed + alone + refusals, 'every batch committed or was refused').to.equal(sent.length);
    // Every batch of both chains was registered once in the end; what was refused stored nothing.
    const stored = (
      await gqlAt(b.url, `{ resources(first: 100, filter: { nameContains: "chain/" }) { edges { node { name } } } }`)
    ).body.data.resources.edges.map((e: { node: { name: string } }) => e.node.name);
    expect([...stored].sort()).to.deep.equal(
      [0, 1].flatMap((c) => Array.from({ length: 20 }, (_, i) => `chain/${c}/${i}`)).sort(),
    );
    expect(followed, 'some batches committed right after the one they follow').to.be.greaterThan(0);
  });
});
