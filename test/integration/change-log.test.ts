import { expect } from 'chai';
import { describeEachBackend, requirePostgres, sqlite } from '../support/backends';
import { captureLogs } from '../support/logs';
import { gqlAt, twoServersOnOnePostgres, type ServerProcess } from '../support/process-server';
import { startServer, type TestServer } from '../support/server';

const ENTRIES = `query($f: ChangeFilter, $first: Int, $after: String) { changes(filter: $f, first: $first, after: $after) {
  totalCount edges { cursor node { id version at actor operation kind entityId entityName summary impactCount } }
  pageInfo { hasNextPage endCursor } } }`;

describeEachBackend('the change log', (backend) => {
  let server: TestServer;
  const ALICE = 'alice-token-0123456789';
  const CI = 'ci-token-0123456789abc';
  const as = (token: string) => ({ authorization: `Bearer ${token}` });

  before(async () => {
    server = await startServer(backend, {
      adminTokens: [
        { name: 'alice', token: ALICE },
        { name: 'ci', token: CI },
      ],
    });
  });
  after(() => server.close());

  const entries = async (filter: Record<string, unknown> = {}, first = 100) =>
    (await server.data(ENTRIES, { f: filter, first })).changes;

  it('names who made each change: the principal of the admin token it was made with, token:<name>', async () => {
    await server.data(`mutation { registerResourceType(input: { name: "vcs" }) { dryRun } }`, undefined, as(ALICE));
    await server.data(`mutation { createProject(input: { name: "shop" }) { dryRun } }`, undefined, as(CI));
    const log = await entries();
    expect(
      log.edges.map((e: any) => [e.node.actor, e.node.operation, e.node.kind, e.node.entityName, e.node.summary]),
    ).to.deep.equal([
      ['token:alice', 'registerResourceType', 'RESOURCE_TYPE', 'vcs', 'registered resource type vcs'],
      ['token:ci', 'createProject', 'PROJECT', 'shop', 'created project shop'],
    ]);
    expect(new Date(log.edges[0].node.at).toISOString()).to.equal(log.edges[0].node.at);
    expect((await entries({ actor: 'token:ci' })).totalCount).to.equal(1);
  });

  it('writes exactly one entry set per committed mutation, in version order, and none for refused ones or dry runs', async () => {
    const before = (await entries()).totalCount;
    const write = (query: string) => server.gql(query, undefined, as(ALICE));
    await write(`mutation { registerResource(input: { name: "acme/repo", type: "vcs" }) { dryRun } }`);
    await write(`mutation { registerResource(input: { name: "ACME/REPO", type: "vcs" }) { dryRun } }`); // CONFLICT
    await write(`mutation { registerResource(input: { name: "acme/x", type: "nope" }) { dryRun } }`); // NOT_FOUND
    await write(`mutation { registerResource(input: { name: "bad name", type: "vcs" }) { dryRun } }`); // BAD_USER_INPUT
    await write(`mutation { registerResource(input: { name: "acme/dry", type: "vcs" }, dryRun: true) { dryRun } }`);
    await write(
      `mutation { linkResource(input: { project: "shop", resource: "acme/repo", alias: "repo" }) { dryRun } }`,
    );
    const log = await entries({ sinceVersion: 0 });
    expect(log.totalCount - before).to.equal(2);
    const versions = log.edges.map((e: any) => e.node.version);
    expect(versions).to.deep.equal([...versions].sort((a: number, b: number) => a - b));
    expect(new Set(versions).size, 'one version per mutation here').to.equal(versions.length);
    expect(log.edges.slice(-2).map((e: any) => e.node.summary)).to.deep.equal([
      'registered resource acme/repo of type vcs',
      'linked acme/repo to project shop under alias repo',
    ]);
  });

  it('pages oldest first with cursors, and filters by kind, by version and by any name an entity had', async () => {
    const all = await entries();
    const first = await server.data(ENTRIES, { first: 2 });
    expect(first.changes.edges.map((e: any) => e.node.id)).to.deep.equal(
      all.edges.slice(0, 2).map((e: any) => e.node.id),
    );
    expect(first.changes.pageInfo.hasNextPage).to.equal(true);
    const next = await server.data(ENTRIES, { first: 2, after: first.changes.pageInfo.endCursor });
    expect(next.changes.edges.map((e: any) => e.node.id)).to.deep.equal(
      all.edges.slice(2, 4).map((e: any) => e.node.id),
    );
    expect((await server.gql(ENTRIES, { after: 'bm90IGEgY3Vyc29y' })).body.errors?.[0].extensions?.code).to.equal(
      'BAD_USER_INPUT',
    );

    expect((await entries({ kind: 'LINK' })).edges.map((e: any) => e.node.entityName)).to.deep.equal(['shop']);
    const version = all.edges[1].node.version;
    expect((await entries({ sinceVersion: version })).totalCount).to.equal(all.totalCount - 2);

    await server.data(
      `mutation { updateResource(input: { ref: "acme/repo", name: "acme/source" }) { dryRun } }`,
      undefined,
      as(CI),
    );
    await server.data(`mutation { deleteResource(ref: "acme/source", force: true) { dryRun } }`, undefined, as(CI));
    // By the old name, the new name, or the id: the whole history, the link's entries included.
    const byOldName = await entries({ ref: 'acme/repo' });
    expect(byOldName.edges.map((e: any) => e.node.summary)).to.deep.equal([
      'registered resource acme/repo of type vcs',
      'linked acme/repo to project shop under alias repo',
      'renamed resource acme/repo to acme/source',
      'unlinked acme/source from project shop',
      'deleted resource acme/source',
    ]);
    expect((await entries({ ref: 'acme/source' })).totalCount).to.equal(5);
    const id = byOldName.edges[0].node.entityId;
    expect((await entries({ ref: id })).totalCount).to.equal(5);
    expect((await entries({ ref: 'never/was' })).totalCount).to.equal(0);
  });

  it('refuses a malformed filter with BAD_USER_INPUT', async () => {
    for (const f of [{ ref: '' }, { actor: 'has space' }, { sinceVersion: -1 }]) {
      expect((await server.gql(ENTRIES, { f })).body.errors?.[0].extensions?.code, JSON.stringify(f)).to.equal(
        'BAD_USER_INPUT',
      );
    }
  });
});

describe('who changed what: actors and the request log', () => {
  it('ADMIN_TOKEN alone is actor token:admin, and the log line of a mutation has the operation and the actor, never the token', async () => {
    const lines = await captureLogs(async (logger) => {
      const server = await startServer(sqlite, { adminToken: 'the-admin-token-123456', logLevel: 'info' }, { logger });
      try {
        await server.data(`mutation MakeShop { createProject(input: { name: "shop" }) { dryRun } }`, undefined, {
          authorization: 'Bearer the-admin-token-123456',
        });
        const log = await server.data(`{ changes { edges { node { actor } } } }`);
        expect(log.changes.edges.map((e: any) => e.node.actor)).to.deep.equal(['token:admin']);
      } finally {
        await server.close();
      }
    });
    const line = lines.find((l) => l.operationName === 'MakeShop');
    expect(line).to.deep.include({ operationType: 'mutation', actor: 'token:admin', outcome: 'ok' });
    expect(JSON.stringify(lines)).to.not.include('the-admin-token-123456');
  });

  it('with no token configured (development) the actor is anonymous', async () => {
    const open = await startServer(sqlite);
    try {
      await open.data(`mutation { createProject(input: { name: "shop" }) { dryRun } }`);
      expect((await open.data(`{ changes { edges { node { actor } } } }`)).changes.edges[0].node.actor).to.equal(
        'anonymous',
      );
    } finally {
      await open.close();
    }
  });
});

describe('the change log under 100 concurrent writers on two instances (PostgreSQL, real processes)', function () {
  this.timeout(120_000);
  let a: ServerProcess;
  let b: ServerProcess;

  before(async function () {
    await requirePostgres(this);
    [a, b] = await twoServersOnOnePostgres();
    await gqlAt(a.url, `mutation { registerResourceType(input: { name: "vcs" }) { dryRun } }`);
    await gqlAt(a.url, `mutation { createProject(input: { name: "shop" }) { dryRun } }`);
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
  });

  it('has exactly one entry set per committed mutation, none for refused ones, ordered by version', async () => {
    // 100 writers: registrations (some names clash), links and dry runs, split across both instances.
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => {
        const at = (i % 2 ? a : b).url;
        if (i % 10 === 9)
          return gqlAt(
            at,
            `mutation { registerResource(input: { name: "r/${i}", type: "vcs" }, dryRun: true) { dryRun } }`,
          );
        return gqlAt(
          at,
          `mutation { registerResource(input: { name: "r/${i % 40}", type: "vcs" }) { registryVersion } }`,
        );
      }),
    );
    const committed = results
      .map((r) => r.body.data?.registerResource?.registryVersion as number | undefined)
      .filter((v): v is number => v !== undefined);
    const refused = results.filter((r) => r.body.errors?.[0].extensions?.code === 'CONFLICT').length;
    // Each distinct name commits once; its other writers get CONFLICT.
    const names = new Set(
      Array.from({ length: 100 }, (_, i) => i)
        .filter((i) => i % 10 !== 9)
        .map((i) => i % 40),
    ).size;
    expect(committed.length + refused + 10).to.equal(100);
    expect(committed.length).to.equal(names);
    const log = (
      await gqlAt(
        b.url,
        `{ changes(first: 100, filter: { kind: RESOURCE }) { totalCount edges { node { version summary } } } }`,
      )
    ).body.data.changes;
    const versions: number[] = log.edges.map((e: any) => e.node.version);
    expect(log.totalCount).to.equal(names);
    // Exactly the versions the committed mutations reported, each once, in order.
    expect(versions).to.deep.equal([...committed].sort((x, y) => x - y));
    expect(new Set(log.edges.map((e: any) => e.node.summary)).size).to.equal(names);
  });
});

describe('the change log at the impact cap (20,000 tool × project pairs; SQLite)', function () {
  this.timeout(120_000);
  let server: TestServer;
  const TOOLS = 200;
  const PROJECTS = 150;
  const LOG = `query($after: String) { changes(first: 100, after: $after) {
    edges { node { operation kind summary impactCount impactComplete } } pageInfo { hasNextPage endCursor } } }`;

  /** Runs mutation fields 15 to a request (the alias limit), each its own transaction. */
  async function inBatches(fields: string[]): Promise<void> {
    for (let i = 0; i < fields.length; i += 15) {
      await server.data(
        `mutation { ${fields
          .slice(i, i + 15)
          .map((f, j) => `m${j}: ${f}`)
          .join(' ')} }`,
      );
    }
  }
  async function wholeLog(): Promise<
    { operation: string; summary: string; impactCount: number; impactComplete: boolean }[]
  > {
    const all = [];
    let after: string | null = null;
    for (;;) {
      const page: any = (await server.data(LOG, { after })).changes;
      all.push(...page.edges.map((e: any) => e.node));
      if (!page.pageInfo.hasNextPage) return all;
      after = page.pageInfo.endCursor;
    }
  }

  // 200 tools, each with a required slot of type child and an optional one of type parent; one resource of type
  // child, linked in 150 projects: 30,000 pairs, 10,000 over the cap.
  before(async () => {
    server = await startServer(sqlite);
    await inBatches([
      `registerResourceType(input: { name: "parent" }) { dryRun }`,
      `registerResourceType(input: { name: "child" }) { dryRun }`,
      `registerResource(input: { name: "shared/r", type: "child" }) { dryRun }`,
    ]);
    await inBatches(
      Array.from(
        { length: TOOLS },
        (_, i) =>
          `registerTool(input: { name: "t/${i}", resourceSlots: [{ name: "a", resourceType: "child" },
            { name: "b", resourceType: "parent", required: false }] }) { dryRun }`,
      ),
    );
    await inBatches(Array.from({ length: PROJECTS }, (_, i) => `createProject(input: { name: "p${i}" }) { dryRun }`));
    await inBatches(
      Array.from(
        { length: PROJECTS },
        (_, i) => `linkResource(input: { project: "p${i}", resource: "shared/r" }) { dryRun }`,
      ),
    );
  });
  after(() => server.close());

  it('an updateResourceType over the cap records how many changes it examined, and says the count is incomplete', async () => {
    // child under parent: slot b of every tool in every project goes from UNBOUND_OPTIONAL to BOUND (30,000 in truth).
    const d = await server.data(
      `mutation { updateResourceType(input: { ref: "child", parentTypes: ["parent"] }) { impact { totalCount complete } } }`,
    );
    expect(d.updateResourceType.impact).to.deep.equal({ totalCount: 20_000, complete: false });
    const entry = (await wholeLog()).find((e) => e.operation === 'updateResourceType')!;
    expect({ impactCount: entry.impactCount, impactComplete: entry.impactComplete }).to.deep.equal({
      impactCount: 20_000,
      impactComplete: false,
    });
  });

  it('a forced delete over the cap marks the unlinks past it incomplete, and the ones before it complete', async () => {
    await server.data(`mutation { deleteResource(ref: "shared/r", force: true) { impact { complete } } }`);
    const entries = (await wholeLog()).filter((e) => e.operation === 'deleteResource');
    const unlinks = entries.filter((e) => e.summary.startsWith('unlinked'));
    expect(unlinks).to.have.length(PROJECTS);
    // Each unlink breaks both slots of all 200 tools in its project (400 changes); 100 unlinks fill the 20,000 pairs.
    const examined = unlinks.filter((e) => e.impactComplete);
    const beyond = unlinks.filter((e) => !e.impactComplete);
    expect(examined.map((e) => e.impactCount)).to.deep.equal(new Array(100).fill(2 * TOOLS));
    expect(beyond.map((e) => e.impactCount)).to.deep.equal(new Array(PROJECTS - 100).fill(0));
    expect(entries.find((e) => e.summary === 'deleted resource shared/r')).to.deep.include({
      impactCount: 0,
      impactComplete: true,
    });
  });

  it('an entry with no cap in sight is complete', async () => {
    await server.data(`mutation { createProject(input: { name: "small" }) { dryRun } }`);
    const log = await wholeLog();
    expect(log[log.length - 1]).to.deep.include({ operation: 'createProject', impactComplete: true });
  });
});
