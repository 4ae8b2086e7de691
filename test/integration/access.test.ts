import { expect } from 'chai';
import { sqlite } from '../support/backends';
import { startServer, type TestServer } from '../support/server';
import { collect, subscriptionClient } from '../support/subscriptions';

const ADMIN = 'admin-token-0123456789';
const READER = 'read-token-0123456789';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The access API as its users see it: who they are, grants, tokens, and what the change log shows them. */
describe('access: principals, grants and tokens', () => {
  let server: TestServer;
  const admin = (query: string, variables?: Record<string, unknown>) => server.data(query, variables, bearer(ADMIN));
  const token = async (name: string, grants: { role: string; namespace: string }[]) =>
    (
      await admin(`mutation($i: CreateApiTokenInput!) { createApiToken(input: $i) { secret } }`, {
        i: { name, grants },
      })
    ).createApiToken.secret as string;

  before(async () => {
    server = await startServer(sqlite, { adminToken: ADMIN, readToken: READER });
  });
  after(() => server?.close());

  describe('viewer', () => {
    it('is token:admin, OWNER of * by configuration, for ADMIN_TOKEN', async () => {
      const { viewer } = await admin(
        `{ viewer { principal groups grants { id principal role namespace grantedBy } } }`,
      );
      expect(viewer).to.deep.equal({
        principal: 'token:admin',
        groups: [],
        grants: [
          { id: 'config:token:admin:*', principal: 'token:admin', role: 'OWNER', namespace: '*', grantedBy: 'config' },
        ],
      });
    });

    it('is token:read, with no grant, for READ_TOKEN: it reads and may change nothing', async () => {
      const { viewer } = await server.data(
        `{ viewer { principal grants { role } can(operation: "createProject", ref: "acme/x") } }`,
        {},
        bearer(READER),
      );
      expect(viewer).to.deep.equal({ principal: 'token:read', grants: [], can: false });
    });

    it('answers can() for each mutation with its rule: EDITOR on the namespace, * for types, OWNER for grants', async () => {
      const secret = await token('viewer-can', [{ role: 'EDITOR', namespace: 'acme' }]);
      const can = async (operation: string, ref: string) =>
        (
          await server.data(
            `query($o: String!, $r: String!) { viewer { can(operation: $o, ref: $r) } }`,
            { o: operation, r: ref },
            bearer(secret),
          )
        ).viewer.can;
      expect(await can('deleteResource', 'acme/db')).to.equal(true);
      expect(await can('deleteResource', 'globex/db')).to.equal(false);
      expect(await can('createProject', 'demo')).to.equal(false);
      expect(await can('registerResourceType', 'git-checkout')).to.equal(false);
      expect(await can('grantRole', 'acme')).to.equal(false);
      const { body } = await server.gql(
        `{ viewer { can(operation: "dropEverything", ref: "acme") } }`,
        {},
        bearer(secret),
      );
      expect(body.errors?.[0].extensions?.code).to.equal('BAD_USER_INPUT');
    });

    it('is anonymous, OWNER of *, in open development mode (no admin token configured)', async () => {
      const open = await startServer(sqlite);
      try {
        expect((await open.data(`{ viewer { principal grants { role namespace } } }`)).viewer).to.deep.equal({
          principal: 'anonymous',
          grants: [{ role: 'OWNER', namespace: '*' }],
        });
      } finally {
        await open.close();
      }
    });
  });

  describe('grants', () => {
    it('grants a role, lists it, refuses a second role on the same namespace (CONFLICT), and revokes it', async () => {
      const granted = await admin(
        `mutation { grantRole(input: { principal: "user:dana", role: EDITOR, namespace: "Globex" }) { grant { id principal role namespace grantedBy createdAt } registryVersion } }`,
      );
      const grant = granted.grantRole.grant;
      expect(grant).to.deep.include({
        principal: 'user:dana',
        role: 'EDITOR',
        namespace: 'globex',
        grantedBy: 'token:admin',
      });
      const listed = await admin(
        `{ roleGrants(filter: { namespace: "globex" }) { totalCount edges { node { id } } } }`,
      );
      expect(listed.roleGrants.edges.map((e: any) => e.node.id)).to.include(grant.id);
      const again = await server.gql(
        `mutation { grantRole(input: { principal: "user:dana", role: OWNER, namespace: "globex" }) { dryRun } }`,
        {},
        bearer(ADMIN),
      );
      expect(again.body.errors?.[0].extensions?.code).to.equal('CONFLICT');
      const revoked = await admin(`mutation($id: ID!) { revokeRole(input: { id: $id }) { deletedId } }`, {
        id: grant.id,
      });
      expect(revoked.revokeRole.deletedId).to.equal(grant.id);
      const gone = await server.gql(
        `mutation($id: ID!) { revokeRole(input: { id: $id }) { deletedId } }`,
        { id: grant.id },
        bearer(ADMIN),
      );
      expect(gone.body.errors?.[0].extensions?.code).to.equal('NOT_FOUND');
    });

    it('finds a grant by node(id) for an OWNER of its namespace and for its holder, and for nobody else', async () => {
      const id = (
        await admin(
          `mutation { grantRole(input: { principal: "user:ivy", role: VIEWER, namespace: "hooli" }) { grant { id } } }`,
        )
      ).grantRole.grant.id;
      const hooliOwner = await token('hooli-owner', [{ role: 'OWNER', namespace: 'hooli' }]);
      const acmeOwner = await token('acme-owner-2', [{ role: 'OWNER', namespace: 'acme' }]);
      const node = async (who: string) =>
        (
          await server.data(
            `query($id: ID!) { node(id: $id) { __typename id ... on RoleGrant { principal } } }`,
            { id },
            bearer(who),
          )
        ).node;
      expect(await node(hooliOwner)).to.deep.equal({ __typename: 'RoleGrant', id, principal: 'user:ivy' });
      expect(await node(acmeOwner)).to.equal(null);
      expect(await node(READER), 'the read token holds no grant').to.equal(null);
    });

    it('refuses a malformed principal or namespace (BAD_USER_INPUT), and a configured token as grantee', async () => {
      for (const [principal, namespace] of [
        ['dana', 'acme'],
        ['user:dana', 'acme/x'],
        ['token:admin', 'acme'],
      ]) {
        const { body } = await server.gql(
          `mutation($p: String!, $n: String!) { grantRole(input: { principal: $p, role: VIEWER, namespace: $n }) { dryRun } }`,
          { p: principal, n: namespace },
          bearer(ADMIN),
        );
        expect(body.errors?.[0].extensions?.code, `${principal} on ${namespace}`).to.equal('BAD_USER_INPUT');
      }
    });

    it('shows an OWNER of acme only the grants on acme, and its own', async () => {
      const owner = await token('acme-owner', [{ role: 'OWNER', namespace: 'acme' }]);
      await admin(
        `mutation { grantRole(input: { principal: "user:erin", role: VIEWER, namespace: "initech" }) { dryRun } }`,
      );
      await admin(
        `mutation { grantRole(input: { principal: "user:frank", role: VIEWER, namespace: "acme" }) { dryRun } }`,
      );
      const seen = await server.data(
        `{ roleGrants(first: 100) { edges { node { principal namespace } } } }`,
        {},
        bearer(owner),
      );
      const namespaces = new Set(seen.roleGrants.edges.map((e: any) => e.node.namespace));
      expect([...namespaces]).to.deep.equal(['acme']);
      expect(seen.roleGrants.edges.map((e: any) => e.node.principal)).to.include.members([
        'user:frank',
        'token:acme-owner',
      ]);
    });
  });

  describe('API tokens', () => {
    it("refuses a bad name, a configured token's name, a repeated namespace, no grant, and an expiry in the past", async () => {
      for (const input of [
        { name: 'bad name', grants: [{ role: 'VIEWER', namespace: 'acme' }] },
        { name: 'admin', grants: [{ role: 'VIEWER', namespace: 'acme' }] },
        { name: 'read', grants: [{ role: 'VIEWER', namespace: 'acme' }] },
        {
          name: 'twice',
          grants: [
            { role: 'VIEWER', namespace: 'acme' },
            { role: 'EDITOR', namespace: 'ACME' },
          ],
        },
        { name: 'none', grants: [] },
        { name: 'past', grants: [{ role: 'VIEWER', namespace: 'acme' }], expiresAt: '2020-01-01T00:00:00.000Z' },
      ]) {
        const { body } = await server.gql(
          `mutation($i: CreateApiTokenInput!) { createApiToken(input: $i) { secret } }`,
          { i: input },
          bearer(ADMIN),
        );
        expect(body.errors?.[0].extensions?.code, input.name).to.equal('BAD_USER_INPUT');
      }
    });

    it('finds a token by node(id) for an OWNER of its namespace, not for others', async () => {
      const owner = await token('node-owner', [{ role: 'OWNER', namespace: 'pied' }]);
      await token('pied-ci', [{ role: 'EDITOR', namespace: 'pied' }]);
      const { apiTokens } = await admin(`{ apiTokens(last: 1) { edges { node { id name } } } }`);
      const { id, name } = apiTokens.edges[0].node;
      expect(name).to.equal('pied-ci');
      const node = async (who: string) =>
        (
          await server.data(
            `query($id: ID!) { node(id: $id) { __typename ... on ApiToken { name principal } } }`,
            { id },
            bearer(who),
          )
        ).node;
      expect(await node(owner)).to.deep.equal({ __typename: 'ApiToken', name: 'pied-ci', principal: 'token:pied-ci' });
      expect(await node(READER)).to.equal(null);
    });

    it('lists tokens to their creator and to OWNERs of their namespaces, not to others', async () => {
      const owner = await token('lister', [{ role: 'OWNER', namespace: 'initech' }]);
      await token('initech-ci', [{ role: 'EDITOR', namespace: 'initech' }]);
      await token('hooli-ci', [{ role: 'EDITOR', namespace: 'hooli' }]);
      const seen = await server.data(`{ apiTokens(first: 100) { edges { node { name } } } }`, {}, bearer(owner));
      const names = seen.apiTokens.edges.map((e: any) => e.node.name);
      expect(names).to.include.members(['lister', 'initech-ci']);
      expect(names).to.not.include('hooli-ci');
    });

    it('refuses an unknown trg_ token, and a bearer that is nothing this server knows (401, never echoed)', async () => {
      for (const bad of ['trg_' + 'A'.repeat(43), 'not-a-token-at-all']) {
        const { status, body } = await server.gql(`{ viewer { principal } }`, {}, bearer(bad));
        expect(status).to.equal(401);
        expect(body.errors?.[0].extensions?.code).to.equal('UNAUTHENTICATED');
        expect(JSON.stringify(body)).to.not.include(bad);
      }
    });
  });

  describe('the change log shows access entries only to OWNERs there', () => {
    let acmeOwner: string;
    let acmeEditor: string;
    before(async () => {
      acmeOwner = await token('log-owner', [{ role: 'OWNER', namespace: 'acme' }]);
      acmeEditor = await token('log-editor', [{ role: 'EDITOR', namespace: 'acme' }]);
      await admin(
        `mutation { grantRole(input: { principal: "user:gina", role: EDITOR, namespace: "acme" }) { dryRun } }`,
      );
      await admin(
        `mutation { grantRole(input: { principal: "user:hal", role: EDITOR, namespace: "globex" }) { dryRun } }`,
      );
      await admin(`mutation { createProject(input: { name: "acme/visible" }) { dryRun } }`);
    });

    const kinds = async (who: string) =>
      (
        await server.data(`{ changes(last: 100) { edges { node { kind entityName namespace } } } }`, {}, bearer(who))
      ).changes.edges.map((e: any) => e.node);

    it('lists no GRANT or API_TOKEN entry to an EDITOR, but every registry entry', async () => {
      const seen = await kinds(acmeEditor);
      expect(seen.filter((e: any) => e.kind === 'GRANT' || e.kind === 'API_TOKEN')).to.deep.equal([]);
      expect(seen.map((e: any) => e.entityName)).to.include('acme/visible');
    });

    it("lists an acme OWNER acme's access entries, not globex's; an OWNER of * sees them all", async () => {
      const owner = (await kinds(acmeOwner)).filter((e: any) => e.kind === 'GRANT');
      expect(owner.map((e: any) => e.entityName)).to.include('user:gina');
      expect(owner.map((e: any) => e.entityName)).to.not.include('user:hal');
      expect(new Set(owner.map((e: any) => e.namespace))).to.deep.equal(new Set(['acme']));
      const all = (await kinds(ADMIN)).filter((e: any) => e.kind === 'GRANT').map((e: any) => e.entityName);
      expect(all).to.include.members(['user:gina', 'user:hal']);
    });

    it('hides them from node(id) too', async () => {
      const entries = await admin(
        `{ changes(last: 100, filter: { kind: GRANT }) { edges { node { id entityName } } } }`,
      );
      const hal = entries.changes.edges.find((e: any) => e.node.entityName === 'user:hal').node.id;
      const { node } = await server.data(`query($id: ID!) { node(id: $id) { id } }`, { id: hal }, bearer(acmeOwner));
      expect(node).to.equal(null);
      expect((await admin(`query($id: ID!) { node(id: $id) { id } }`, { id: hal })).node).to.deep.equal({ id: hal });
    });

    it('hides them from registryChanged for a subscriber who is not OWNER there', async () => {
      const editor = subscriptionClient(server.url, { connectionParams: { authorization: `Bearer ${acmeEditor}` } });
      const owner = subscriptionClient(server.url, { connectionParams: { authorization: `Bearer ${ADMIN}` } });
      const query = `subscription { registryChanged(afterVersion: 0) { kind entityName } }`;
      try {
        const total = (await admin(`{ changes { totalCount } }`)).changes.totalCount;
        const all = await collect<{ kind: string }>(owner, query, {}, (got) => got.length >= total);
        expect(all.items.some((e) => e.kind === 'GRANT')).to.equal(true);
        const registryOnly = all.items.filter((e) => e.kind !== 'GRANT' && e.kind !== 'API_TOKEN').length;
        const seen = await collect<{ kind: string }>(editor, query, {}, (got) => got.length >= registryOnly);
        expect(seen.errors).to.deep.equal([]);
        expect(seen.items.filter((e) => e.kind === 'GRANT' || e.kind === 'API_TOKEN')).to.deep.equal([]);
      } finally {
        await Promise.all([editor.dispose(), owner.dispose()]);
      }
    });
  });

  describe('authorization runs once per mutation, not per field', () => {
    it("reads the principal's grants once per mutation, in its transaction, whatever the payload selects; and never for a read", async () => {
      const secret = await token('counted', [{ role: 'EDITOR', namespace: 'acme' }]);
      await server.data(`{ viewer { principal } }`, {}, bearer(secret)); // its lastUsedAt, written now
      const grantReads = async (query: string) => {
        server.app.db.counter.startRecording();
        const { body } = await server.gql(query, {}, bearer(secret));
        const statements = server.app.db.counter.stopRecording();
        expect(body.errors, JSON.stringify(body.errors)).to.equal(undefined);
        return statements.filter((text) => /FROM "?role_grant/.test(text)).length;
      };
      const payload = `project { id name description createdAt updatedAt resources { alias resource { id name } } }`;
      expect(await grantReads(`mutation { createProject(input: { name: "acme/once" }) { ${payload} } }`)).to.equal(1);
      const two = `mutation {
        a: createProject(input: { name: "acme/twice-a" }) { ${payload} }
        b: createProject(input: { name: "acme/twice-b" }) { ${payload} dryRun registryVersion }
      }`;
      expect(await grantReads(two), 'one per mutation of the document').to.equal(2);
      expect(await grantReads(`{ projects(first: 50) { edges { node { id name resources { alias } } } } }`)).to.equal(
        0,
      );
    });

    it('keeps a token it has looked up: a repeated read with it sends no statement, until access changes', async () => {
      const secret = await token('kept', [{ role: 'VIEWER', namespace: 'acme' }]);
      const statementsOf = async (query: string) => {
        const before = server.statements();
        const { status } = await server.gql(query, {}, bearer(secret));
        return { status, statements: server.statements() - before };
      };
      await statementsOf(`{ __typename }`); // looked up, and its lastUsedAt written
      expect(await statementsOf(`{ __typename }`)).to.deep.equal({ status: 200, statements: 0 });
      await admin(
        `mutation { grantRole(input: { principal: "user:kept-check", role: VIEWER, namespace: "acme" }) { dryRun } }`,
      );
      expect(await statementsOf(`{ __typename }`), 'access changed: looked up again').to.deep.equal({
        status: 200,
        statements: 1,
      });
      expect(await statementsOf(`{ __typename }`)).to.deep.equal({ status: 200, statements: 0 });
      await admin(`mutation { revokeApiToken(input: { ref: "kept" }) { dryRun } }`);
      expect((await statementsOf(`{ __typename }`)).status, 'revoked: refused at once').to.equal(401);
    });
  });

  describe('READ_AUTH=required', () => {
    it('refuses reads without a token, and lets any authenticated principal read', async () => {
      const closed = await startServer(sqlite, { adminToken: ADMIN, readAuth: 'required' });
      try {
        const anonymous = await closed.gql(`{ tools { totalCount } }`);
        expect(anonymous.status).to.equal(401);
        expect(anonymous.body.errors?.[0].extensions?.code).to.equal('UNAUTHENTICATED');
        const made = await closed.data(
          `mutation { createApiToken(input: { name: "reader", grants: [{ role: VIEWER, namespace: "acme" }] }) { secret } }`,
          {},
          bearer(ADMIN),
        );
        const read = await closed.gql(`{ tools { totalCount } }`, {}, bearer(made.createApiToken.secret));
        expect(read.body.data?.tools.totalCount).to.equal(0);
      } finally {
        await closed.close();
      }
    });
  });
});
