import { expect } from 'chai';
import type { GraphQLField } from 'graphql';
import { buildRegistrySchema } from '../../src/engine/executable-schema';
import { sqlite } from '../support/backends';
import { databaseDigest } from '../support/digest';
import { startServer, type TestServer } from '../support/server';

const ADMIN = 'admin-token-0123456789';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** What a mutation needs, as the table states it (written here again, not read from the server's table). */
interface Needs {
  readonly role: 'EDITOR' | 'OWNER';
  /** `namespace`: on the namespace of what it changes (here always acme); `global`: on `*`. */
  readonly on: 'namespace' | 'global';
}

/** One call of a mutation on something made for it in namespace acme (or the global scope), and the ref viewer.can takes. */
interface Call {
  readonly query: string;
  readonly variables: Record<string, unknown>;
  readonly ref: string;
}

/** A mutation's case: what it needs, and how to make a fresh target and call it (`n` keeps names apart). */
interface Case {
  readonly needs: Needs;
  prepare(admin: Admin, n: number): Promise<Call>;
}

type Admin = (query: string, variables?: Record<string, unknown>) => Promise<any>;

const EDIT: Needs = { role: 'EDITOR', on: 'namespace' };
const EDIT_GLOBAL: Needs = { role: 'EDITOR', on: 'global' };
const OWN: Needs = { role: 'OWNER', on: 'namespace' };
const SLOTS = [{ name: 'repo', resourceType: 'git-checkout' }];

/** Every Mutation field, with the rule of the table. A mutation missing here fails the walk below. */
const CASES: Record<string, Case> = {
  registerResourceType: {
    needs: EDIT_GLOBAL,
    prepare: async (_a, n) => ({
      query: `mutation($n: String!, $d: Boolean) { registerResourceType(input: { name: $n }, dryRun: $d) { dryRun } }`,
      variables: { n: `type-${n}` },
      ref: `type-${n}`,
    }),
  },
  updateResourceType: {
    needs: EDIT_GLOBAL,
    prepare: async (admin, n) => {
      await admin(`mutation { registerResourceType(input: { name: "utype-${n}" }) { dryRun } }`);
      return {
        query: `mutation($d: Boolean) { updateResourceType(input: { ref: "utype-${n}", description: "x" }, dryRun: $d) { dryRun } }`,
        variables: {},
        ref: `utype-${n}`,
      };
    },
  },
  deleteResourceType: {
    needs: EDIT_GLOBAL,
    prepare: async (admin, n) => {
      await admin(`mutation { registerResourceType(input: { name: "dtype-${n}" }) { dryRun } }`);
      return {
        query: `mutation($d: Boolean) { deleteResourceType(ref: "dtype-${n}", dryRun: $d) { dryRun } }`,
        variables: {},
        ref: `dtype-${n}`,
      };
    },
  },
  registerResource: {
    needs: EDIT,
    prepare: async (_a, n) => ({
      query: `mutation($d: Boolean) { registerResource(input: { name: "acme/r-${n}", type: "git-checkout" }, dryRun: $d) { dryRun } }`,
      variables: {},
      ref: `acme/r-${n}`,
    }),
  },
  updateResource: {
    needs: EDIT,
    prepare: async (admin, n) => {
      const id = await resource(admin, `acme/ur-${n}`);
      // By id: the namespace is known only once the resource is found.
      return {
        query: `mutation($d: Boolean) { updateResource(input: { ref: "${id}", description: "x" }, dryRun: $d) { dryRun } }`,
        variables: {},
        ref: id,
      };
    },
  },
  deleteResource: {
    needs: EDIT,
    prepare: async (admin, n) => {
      await resource(admin, `acme/dr-${n}`);
      return {
        query: `mutation($d: Boolean) { deleteResource(ref: "acme/dr-${n}", dryRun: $d) { dryRun } }`,
        variables: {},
        ref: `acme/dr-${n}`,
      };
    },
  },
  createProject: {
    needs: EDIT,
    prepare: async (_a, n) => ({
      query: `mutation($d: Boolean) { createProject(input: { name: "acme/p-${n}" }, dryRun: $d) { dryRun } }`,
      variables: {},
      ref: `acme/p-${n}`,
    }),
  },
  updateProject: {
    needs: EDIT,
    prepare: async (admin, n) => {
      const id = await project(admin, `acme/up-${n}`);
      return {
        query: `mutation($d: Boolean) { updateProject(input: { ref: "${id}", description: "x" }, dryRun: $d) { dryRun } }`,
        variables: {},
        ref: id,
      };
    },
  },
  deleteProject: {
    needs: EDIT,
    prepare: async (admin, n) => {
      await project(admin, `acme/dp-${n}`);
      return {
        query: `mutation($d: Boolean) { deleteProject(ref: "acme/dp-${n}", dryRun: $d) { dryRun } }`,
        variables: {},
        ref: `acme/dp-${n}`,
      };
    },
  },
  registerTool: {
    needs: EDIT,
    prepare: async (_a, n) => ({
      query: `mutation($i: RegisterToolInput!, $d: Boolean) { registerTool(input: $i, dryRun: $d) { dryRun } }`,
      variables: { i: { name: `acme/t-${n}`, resourceSlots: SLOTS } },
      ref: `acme/t-${n}`,
    }),
  },
  updateTool: {
    needs: EDIT,
    prepare: async (admin, n) => {
      await tool(admin, `acme/ut-${n}`);
      return {
        query: `mutation($i: UpdateToolInput!, $d: Boolean) { updateTool(input: $i, dryRun: $d) { dryRun } }`,
        variables: { i: { name: `acme/ut-${n}`, description: 'x', resourceSlots: SLOTS } },
        ref: `acme/ut-${n}`,
      };
    },
  },
  unregisterTool: {
    needs: EDIT,
    prepare: async (admin, n) => {
      const id = await tool(admin, `acme/dt-${n}`);
      return {
        query: `mutation($d: Boolean) { unregisterTool(ref: "${id}", dryRun: $d) { dryRun } }`,
        variables: {},
        ref: id,
      };
    },
  },
  linkResource: {
    needs: EDIT,
    prepare: async (admin, n) => {
      await project(admin, `acme/lp-${n}`);
      return {
        query: `mutation($d: Boolean) { linkResource(input: { project: "acme/lp-${n}", resource: "globex/shared" }, dryRun: $d) { dryRun } }`,
        variables: {},
        ref: `acme/lp-${n}`,
      };
    },
  },
  registerBatch: {
    needs: EDIT,
    // Each entry by its own mutation's rule: here a resource and a project in acme, and a link between them.
    prepare: async (_a, n) => ({
      query: `mutation($i: RegisterBatchInput!, $d: Boolean) { registerBatch(input: $i, dryRun: $d) { dryRun } }`,
      variables: {
        i: {
          entries: [
            { resource: { name: `acme/br-${n}`, type: 'git-checkout' } },
            { project: { name: `acme/bp-${n}` } },
            { link: { project: `acme/bp-${n}`, resource: `acme/br-${n}` } },
          ],
        },
      },
      ref: 'acme',
    }),
  },
  unlinkResource: {
    needs: EDIT,
    prepare: async (admin, n) => {
      await linked(admin, `acme/ulp-${n}`);
      return {
        query: `mutation($d: Boolean) { unlinkResource(input: { project: "acme/ulp-${n}", resource: "globex/shared" }, dryRun: $d) { dryRun } }`,
        variables: {},
        ref: `acme/ulp-${n}`,
      };
    },
  },
  updateLink: {
    needs: EDIT,
    prepare: async (admin, n) => {
      const id = await linked(admin, `acme/alp-${n}`);
      return {
        query: `mutation($d: Boolean) { updateLink(input: { project: "${id}", resource: "globex/shared", alias: "main" }, dryRun: $d) { dryRun } }`,
        variables: {},
        ref: id,
      };
    },
  },
  grantRole: {
    needs: OWN,
    prepare: async (_a, n) => ({
      query: `mutation($d: Boolean) { grantRole(input: { principal: "user:u-${n}", role: VIEWER, namespace: "acme" }, dryRun: $d) { dryRun } }`,
      variables: {},
      ref: 'acme',
    }),
  },
  revokeRole: {
    needs: OWN,
    prepare: async (admin, n) => {
      const id = (
        await admin(
          `mutation { grantRole(input: { principal: "user:r-${n}", role: VIEWER, namespace: "acme" }) { grant { id } } }`,
        )
      ).grantRole.grant.id;
      return {
        query: `mutation($d: Boolean) { revokeRole(input: { id: "${id}" }, dryRun: $d) { dryRun } }`,
        variables: {},
        ref: id,
      };
    },
  },
  createApiToken: {
    needs: OWN,
    prepare: async (_a, n) => ({
      query: `mutation { createApiToken(input: { name: "made-${n}", grants: [{ role: VIEWER, namespace: "acme" }] }) { token { id } } }`,
      variables: {},
      ref: 'acme',
    }),
  },
  revokeApiToken: {
    needs: OWN,
    prepare: async (admin, n) => {
      await admin(
        `mutation { createApiToken(input: { name: "gone-${n}", grants: [{ role: VIEWER, namespace: "acme" }] }) { token { id } } }`,
      );
      return {
        query: `mutation($d: Boolean) { revokeApiToken(input: { ref: "gone-${n}" }, dryRun: $d) { dryRun } }`,
        variables: {},
        ref: `gone-${n}`,
      };
    },
  },
};

async function resource(admin: Admin, name: string): Promise<string> {
  const made = await admin(
    `mutation($n: String!) { registerResource(input: { name: $n, type: "git-checkout" }) { resource { id } } }`,
    { n: name },
  );
  return made.registerResource.resource.id;
}

async function project(admin: Admin, name: string): Promise<string> {
  return (await admin(`mutation($n: String!) { createProject(input: { name: $n }) { project { id } } }`, { n: name }))
    .createProject.project.id;
}

async function tool(admin: Admin, name: string): Promise<string> {
  return (
    await admin(`mutation($i: RegisterToolInput!) { registerTool(input: $i) { tool { id } } }`, {
      i: { name, resourceSlots: SLOTS },
    })
  ).registerTool.tool.id;
}

/** A project in acme linking globex/shared (a link belongs to its project: acme's to change). */
async function linked(admin: Admin, name: string): Promise<string> {
  const id = await project(admin, name);
  await admin(`mutation($p: String!) { linkResource(input: { project: $p, resource: "globex/shared" }) { dryRun } }`, {
    p: name,
  });
  return id;
}

/** The principals each mutation is tried as, with the grants their API tokens hold. */
const PRINCIPALS = [
  { name: 'no token', grants: null },
  { name: 'VIEWER in acme', grants: [{ role: 'VIEWER', namespace: 'acme' }] },
  { name: 'EDITOR in acme (the same namespace)', grants: [{ role: 'EDITOR', namespace: 'acme' }] },
  { name: 'EDITOR in globex (another namespace)', grants: [{ role: 'EDITOR', namespace: 'globex' }] },
  { name: 'OWNER of acme', grants: [{ role: 'OWNER', namespace: 'acme' }] },
  { name: 'OWNER of *', grants: [{ role: 'OWNER', namespace: '*' }] },
] as const;

const RANK = { VIEWER: 0, EDITOR: 1, OWNER: 2 } as const;

/** The rule: may a principal with these grants run a mutation that needs `needs`, on acme? */
function allowed(grants: readonly { role: keyof typeof RANK; namespace: string }[], needs: Needs): boolean {
  return grants.some(
    (g) =>
      RANK[g.role] >= RANK[needs.role] && (g.namespace === '*' || (needs.on === 'namespace' && g.namespace === 'acme')),
  );
}

/**
 * The permission test, generated from the built schema: every Mutation field,
 * for each principal, run as a dry run and for real on a fresh target in
 * acme (or the global scope). The outcome is the rule; a refusal is
 * FORBIDDEN (UNAUTHENTICATED without a token) and changes nothing: every
 * table's digest, the registry version and the change log are as before.
 * viewer.can answers the same. A Mutation field without a case here fails.
 */
describe('permissions: every mutation, for every kind of principal', function () {
  this.timeout(300_000);
  let server: TestServer;
  let fields: GraphQLField<unknown, unknown>[];
  const secrets = new Map<string, string>();
  let n = 0;
  const admin: Admin = (query, variables) => server.data(query, variables, bearer(ADMIN));

  before(async () => {
    fields = Object.values((await buildRegistrySchema()).getMutationType()!.getFields());
    server = await startServer(sqlite, { adminToken: ADMIN });
    await admin(`mutation { registerResourceType(input: { name: "git-checkout" }) { dryRun } }`);
    await resource(admin, 'globex/shared');
    for (const principal of PRINCIPALS) {
      if (!principal.grants) continue;
      const made = await admin(`mutation($i: CreateApiTokenInput!) { createApiToken(input: $i) { secret } }`, {
        i: { name: `p${secrets.size}`, grants: principal.grants },
      });
      secrets.set(principal.name, made.createApiToken.secret);
    }
  });
  after(() => server?.close());

  it('has a rule for every Mutation field of the schema (a new mutation without one fails here)', () => {
    expect(fields.length).to.be.greaterThan(15);
    expect(fields.map((f) => f.name).filter((name) => !(name in CASES))).to.deep.equal([]);
  });

  /** Everything a refused mutation must leave as it was. */
  async function state() {
    const changes = await admin(`{ changes { totalCount } }`);
    return {
      digest: await databaseDigest(server),
      version: (await server.app.versioning.current()).version,
      changes: changes.changes.totalCount,
    };
  }

  for (const principal of PRINCIPALS) {
    it(`holds the rule of each mutation for: ${principal.name}`, async () => {
      const headers = principal.grants ? bearer(secrets.get(principal.name)!) : {};
      const outcomes: string[] = [];
      for (const field of fields) {
        const rule = CASES[field.name];
        expect(rule, `no permission case for mutation ${field.name}`).to.not.equal(undefined);
        const expected =
          principal.grants === null ? 'UNAUTHENTICATED' : allowed(principal.grants, rule.needs) ? 'OK' : 'FORBIDDEN';
        const call = await rule.prepare(admin, ++n);
        // The token's lastUsedAt is written (at most every few minutes) before a request answers: done here.
        const can = await server.gql(
          `query($o: String!, $r: String!) { viewer { can(operation: $o, ref: $r) } }`,
          {
            o: field.name,
            r: call.ref,
          },
          headers,
        );
        expect(can.body.data?.viewer.can, `viewer.can(${field.name}) for ${principal.name}`).to.equal(
          expected === 'OK',
        );

        const hasDryRun = field.args.some((a) => a.name === 'dryRun');
        const runs = hasDryRun ? [true, false] : [false];
        for (const dryRun of runs) {
          const before = await state();
          const { status, body } = await server.gql(call.query, { ...call.variables, d: dryRun }, headers);
          const code = body.errors?.[0]?.extensions?.code ?? (status === 200 ? 'OK' : `HTTP ${status}`);
          const what = `${field.name}${dryRun ? ' (dry run)' : ''} as ${principal.name}`;
          expect(code, `${what}: ${JSON.stringify(body.errors)}`).to.equal(expected);
          if (expected === 'FORBIDDEN') {
            expect(body.errors![0].extensions).to.include.keys('principal', 'role', 'namespaces');
            expect(body.errors![0].message, what).to.match(/^(entry \d+: )?token:p\d+ may not/);
          }
          if (expected !== 'OK' || dryRun) expect(await state(), `${what} changed something`).to.deep.equal(before);
          else expect((await state()).version, `${what} committed`).to.equal(before.version + 1);
        }
        outcomes.push(`${field.name}:${expected}`);
      }
      expect(outcomes).to.have.length(fields.length);
    });
  }
});
