import { expect } from 'chai';
import { sqlite } from '../support/backends';
import { databaseDigest } from '../support/digest';
import { startServer, type TestServer } from '../support/server';

const ADMIN = 'admin-token-0123456789';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Nobody gets more than they hold: not by granting, not by making a token,
 * not by renaming into another team's namespace, not by a forced delete
 * that reaches other teams' projects. Each refusal is FORBIDDEN, names what
 * is missing, and changes nothing (dry runs are refused the same way).
 */
describe('privilege escalation is refused', () => {
  let server: TestServer;
  const admin = (query: string, variables?: Record<string, unknown>) => server.data(query, variables, bearer(ADMIN));
  const tokens: Record<string, string> = {};

  before(async () => {
    server = await startServer(sqlite, { adminToken: ADMIN });
    await admin(`mutation { registerResourceType(input: { name: "db" }) { dryRun } }`);
    for (const name of ['acme/orders-db', 'acme/shared-db', 'globex/db']) {
      await admin(`mutation($n: String!) { registerResource(input: { name: $n, type: "db" }) { dryRun } }`, {
        n: name,
      });
    }
    for (const name of ['acme/app', 'globex/shop', 'initech/app']) {
      await admin(`mutation($n: String!) { createProject(input: { name: $n }) { dryRun } }`, { n: name });
      await admin(
        `mutation($p: String!) { linkResource(input: { project: $p, resource: "acme/shared-db" }) { dryRun } }`,
        { p: name },
      );
    }
    await admin(
      `mutation { registerTool(input: { name: "acme/lint", resourceSlots: [{ name: "db", resourceType: "db" }] }) { dryRun } }`,
    );
    for (const [name, role, namespace] of [
      ['acme-owner', 'OWNER', 'acme'],
      ['acme-editor', 'EDITOR', 'acme'],
    ] as const) {
      const made = await admin(`mutation($i: CreateApiTokenInput!) { createApiToken(input: $i) { secret } }`, {
        i: { name, grants: [{ role, namespace }] },
      });
      tokens[name] = made.createApiToken.secret;
      // The first use writes lastUsedAt: done now, so that the digests below see only what a mutation did.
      await server.data(`{ viewer { principal } }`, {}, bearer(tokens[name]));
    }
  });
  after(() => server?.close());

  /** Runs a mutation as `who`, as a dry run and for real: both refused with FORBIDDEN, nothing changed. Returns the error. */
  async function refusedBoth(who: string, query: string, variables: Record<string, unknown> = {}) {
    const errors = [];
    for (const dryRun of [true, false]) {
      const before = await databaseDigest(server);
      const version = (await server.app.versioning.current()).version;
      const { body } = await server.gql(query, { ...variables, d: dryRun }, bearer(tokens[who]));
      expect(body.errors?.[0]?.extensions?.code, JSON.stringify(body)).to.equal('FORBIDDEN');
      expect(await databaseDigest(server), 'nothing changed').to.equal(before);
      expect((await server.app.versioning.current()).version).to.equal(version);
      errors.push(body.errors![0]);
    }
    expect(errors[0], 'a dry run is refused exactly like the real run').to.deep.equal(errors[1]);
    return errors[1];
  }

  describe('granting more than you hold', () => {
    it('an EDITOR cannot grant, not even VIEWER', async () => {
      const error = await refusedBoth(
        'acme-editor',
        `mutation($d: Boolean) { grantRole(input: { principal: "user:mallory", role: VIEWER, namespace: "acme" }, dryRun: $d) { dryRun } }`,
      );
      expect(error.extensions).to.deep.include({ principal: 'token:acme-editor', role: 'OWNER', namespaces: ['acme'] });
    });

    it('an OWNER of acme cannot grant on * (every namespace), nor on another namespace', async () => {
      for (const namespace of ['*', 'globex']) {
        const error = await refusedBoth(
          'acme-owner',
          `mutation($n: String!, $d: Boolean) { grantRole(input: { principal: "user:mallory", role: OWNER, namespace: $n }, dryRun: $d) { dryRun } }`,
          { n: namespace },
        );
        expect(error.extensions).to.deep.include({ role: 'OWNER', namespaces: [namespace] });
        expect(error.message).to.match(/token:acme-owner may not grantRole/);
      }
    });

    it('an OWNER of acme can grant up to OWNER in acme, and nobody gets more than that from it', async () => {
      const { body } = await server.gql(
        `mutation { grantRole(input: { principal: "user:deputy", role: OWNER, namespace: "acme" }) { grant { role namespace grantedBy } } }`,
        {},
        bearer(tokens['acme-owner']),
      );
      expect(body.data?.grantRole.grant).to.deep.equal({
        role: 'OWNER',
        namespace: 'acme',
        grantedBy: 'token:acme-owner',
      });
    });

    it('nobody grants a role to a token that does not exist yet (whoever made it first would have it)', async () => {
      const { body } = await server.gql(
        `mutation { grantRole(input: { principal: "token:not-made-yet", role: EDITOR, namespace: "acme" }) { dryRun } }`,
        {},
        bearer(tokens['acme-owner']),
      );
      expect(body.errors?.[0].extensions?.code).to.equal('NOT_FOUND');
    });

    it('an OWNER of acme cannot revoke a grant on globex', async () => {
      const id = (
        await admin(
          `mutation { grantRole(input: { principal: "user:gary", role: EDITOR, namespace: "globex" }) { grant { id } } }`,
        )
      ).grantRole.grant.id;
      const error = await refusedBoth(
        'acme-owner',
        `mutation($id: ID!, $d: Boolean) { revokeRole(input: { id: $id }, dryRun: $d) { dryRun } }`,
        { id },
      );
      expect(error.extensions).to.deep.include({ namespaces: ['globex'] });
    });
  });

  describe('a token with more than its creator holds', () => {
    it('an OWNER of acme cannot make a token for globex or for *, nor one that adds either to acme', async () => {
      for (const grants of [
        [{ role: 'VIEWER', namespace: 'globex' }],
        [{ role: 'EDITOR', namespace: '*' }],
        [
          { role: 'EDITOR', namespace: 'acme' },
          { role: 'EDITOR', namespace: 'globex' },
        ],
      ]) {
        const before = await databaseDigest(server);
        const { body } = await server.gql(
          `mutation($i: CreateApiTokenInput!) { createApiToken(input: $i) { secret } }`,
          { i: { name: `sneaky-${grants.length}-${grants[0].namespace.replace('*', 'all')}`, grants } },
          bearer(tokens['acme-owner']),
        );
        expect(body.errors?.[0]?.extensions?.code, JSON.stringify(grants)).to.equal('FORBIDDEN');
        expect(body.data ?? null).to.equal(null);
        expect(JSON.stringify(body)).to.not.match(/trg_/);
        expect(await databaseDigest(server)).to.equal(before);
      }
    });

    it('an EDITOR cannot make a token at all, not even one with less than it holds', async () => {
      const { body } = await server.gql(
        `mutation { createApiToken(input: { name: "from-editor", grants: [{ role: VIEWER, namespace: "acme" }] }) { secret } }`,
        {},
        bearer(tokens['acme-editor']),
      );
      expect(body.errors?.[0]?.extensions).to.deep.include({ code: 'FORBIDDEN', role: 'OWNER' });
    });

    it('a token made by an OWNER of acme can do in acme what it was given, and no more', async () => {
      const made = await server.data(
        `mutation { createApiToken(input: { name: "acme-ci", grants: [{ role: EDITOR, namespace: "acme" }] }) { secret token { createdBy grants { role namespace grantedBy } } } }`,
        {},
        bearer(tokens['acme-owner']),
      );
      expect(made.createApiToken.token).to.deep.equal({
        createdBy: 'token:acme-owner',
        grants: [{ role: 'EDITOR', namespace: 'acme', grantedBy: 'token:acme-owner' }],
      });
      const ci = bearer(made.createApiToken.secret);
      expect(
        (await server.gql(`mutation { createProject(input: { name: "acme/ci-made" }) { dryRun } }`, {}, ci)).body
          .errors,
      ).to.equal(undefined);
      expect(
        (await server.gql(`mutation { createProject(input: { name: "globex/ci-made" }) { dryRun } }`, {}, ci)).body
          .errors?.[0].extensions?.code,
      ).to.equal('FORBIDDEN');
      expect(
        (
          await server.gql(
            `mutation { grantRole(input: { principal: "token:acme-ci", role: OWNER, namespace: "acme" }) { dryRun } }`,
            {},
            ci,
          )
        ).body.errors?.[0].extensions?.code,
        'a token cannot raise itself',
      ).to.equal('FORBIDDEN');
    });
  });

  describe('renaming into a namespace you do not edit', () => {
    it('refuses a rename of a resource, a project or a tool into globex, by name or by id', async () => {
      const ids = await admin(
        `{ resource(ref: "acme/orders-db") { id } project(ref: "acme/app") { id } tool(ref: "acme/lint") { id } }`,
      );
      const renames = [
        [
          `mutation($d: Boolean) { updateResource(input: { ref: "acme/orders-db", name: "globex/orders-db" }, dryRun: $d) { dryRun } }`,
        ],
        [
          `mutation($d: Boolean) { updateResource(input: { ref: "${ids.resource.id}", name: "globex/orders-db" }, dryRun: $d) { dryRun } }`,
        ],
        [
          `mutation($d: Boolean) { updateProject(input: { ref: "${ids.project.id}", name: "globex/app" }, dryRun: $d) { dryRun } }`,
        ],
        [
          `mutation($d: Boolean) { updateTool(input: { ref: "${ids.tool.id}", name: "globex/lint", resourceSlots: [{ name: "db", resourceType: "db" }] }, dryRun: $d) { dryRun } }`,
        ],
      ];
      for (const [query] of renames) {
        const error = await refusedBoth('acme-editor', query);
        expect(error.extensions, query).to.deep.include({
          principal: 'token:acme-editor',
          role: 'EDITOR',
          namespaces: ['globex'],
        });
      }
    });

    it('refuses a rename out of globex into acme by an EDITOR of acme too (it does not edit where the thing is)', async () => {
      const error = await refusedBoth(
        'acme-editor',
        `mutation($d: Boolean) { updateResource(input: { ref: "globex/db", name: "acme/taken-db" }, dryRun: $d) { dryRun } }`,
      );
      expect(error.extensions).to.deep.include({ namespaces: ['globex'] });
    });

    it('allows a rename within acme', async () => {
      const { body } = await server.gql(
        `mutation { updateResource(input: { ref: "acme/orders-db", name: "acme/orders" }) { resource { name } } }`,
        {},
        bearer(tokens['acme-editor']),
      );
      expect(body.data?.updateResource.resource.name).to.equal('acme/orders');
    });
  });

  describe('a forced delete that reaches other teams', () => {
    it('refuses deleteResource(force: true) of a resource linked by globex and initech projects, naming both', async () => {
      const error = await refusedBoth(
        'acme-editor',
        `mutation($d: Boolean) { deleteResource(ref: "acme/shared-db", force: true, dryRun: $d) { dryRun } }`,
      );
      expect(error.extensions).to.deep.include({
        code: 'FORBIDDEN',
        role: 'EDITOR',
        namespaces: ['globex', 'initech'],
      });
      expect(error.message).to.match(/globex, initech/);
    });

    it('lets an EDITOR of every namespace it reaches do it', async () => {
      const { body } = await server.gql(
        `mutation { deleteResource(ref: "acme/shared-db", force: true, dryRun: true) { dryRun impact { totalCount } } }`,
        {},
        bearer(ADMIN),
      );
      expect(body.errors).to.equal(undefined);
    });
  });
});
