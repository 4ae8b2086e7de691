import { expect } from 'chai';
import { buildRegistrySchema } from '../../src/engine/executable-schema';
import { bootstrap } from '../../src/main';
import { sqlite } from '../support/backends';
import { seedExample } from '../support/registry-fixtures';
import { captureLogs } from '../support/logs';
import { callFor } from '../support/schema-walk';
import { startServer, type TestServer } from '../support/server';

const ADMIN = 'admin-token-0123456789';
const READER = 'read-token-0123456789';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('authentication and authorization', () => {
  describe('with ADMIN_TOKEN only', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(sqlite, { adminToken: ADMIN });
    });
    after(() => server.close());

    const register = (headers?: Record<string, string>) =>
      server.gql(
        `mutation { createProject(input: { name: "p${Math.random().toString(36).slice(2)}" }) { project { id } } }`,
        {},
        headers,
      );

    it('refuses every mutation without a token: UNAUTHENTICATED', async () => {
      const { body } = await register();
      expect(body.errors?.[0].extensions?.code).to.equal('UNAUTHENTICATED');
      expect(body.data).to.equal(null);
    });

    it('refuses a token that matches nothing: UNAUTHENTICATED', async () => {
      expect((await register(bearer('wrong'))).body.errors?.[0].extensions?.code).to.equal('UNAUTHENTICATED');
      expect((await register({ authorization: 'Basic abc' })).body.errors?.[0].extensions?.code).to.equal(
        'UNAUTHENTICATED',
      );
    });

    it('lets the admin token run mutations', async () => {
      expect((await register(bearer(ADMIN))).body.errors).to.equal(undefined);
    });

    it('leaves queries open when READ_TOKEN is unset', async () => {
      expect((await server.gql(`{ projects { totalCount } }`)).body.data?.projects.totalCount).to.equal(1);
    });

    it('checks the token before the input, so a refused caller learns nothing about it', async () => {
      const { body } = await server.gql(`mutation { createProject(input: { name: "bad name" }) { project { id } } }`);
      expect(body.errors?.[0].extensions?.code).to.equal('UNAUTHENTICATED');
    });
  });

  describe('with ADMIN_TOKEN and READ_TOKEN', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(sqlite, { adminToken: ADMIN, readToken: READER });
      // The seed example, written with the admin token.
      const admin: TestServer = { ...server, gql: (q, v, h) => server.gql(q, v, { ...bearer(ADMIN), ...h }) };
      admin.data = async (q, v) => {
        const { body } = await admin.gql(q, v);
        if (body.errors) throw new Error(JSON.stringify(body.errors));
        return body.data;
      };
      await seedExample(admin);
    });
    after(() => server.close());

    it('refuses a read token on every Mutation field of the schema: FORBIDDEN, and stores nothing', async () => {
      const schema = await buildRegistrySchema();
      const mutations = Object.values(schema.getMutationType()!.getFields());
      expect(mutations.length).to.be.greaterThan(8);
      const before = await server.gql(
        `{ tools { totalCount } projects { totalCount } resources { totalCount } resourceTypes { totalCount } }`,
        {},
        bearer(READER),
      );
      for (const field of mutations) {
        const { query, variables } = callFor('mutation', field);
        const { body } = await server.gql(query, variables, bearer(READER));
        expect(body.errors?.[0]?.extensions?.code, `${field.name}: ${JSON.stringify(body)}`).to.equal('FORBIDDEN');
      }
      const after = await server.gql(
        `{ tools { totalCount } projects { totalCount } resources { totalCount } resourceTypes { totalCount } }`,
        {},
        bearer(READER),
      );
      expect(after.body).to.deep.equal(before.body);
    });

    it('refuses every Query field without a token: UNAUTHENTICATED (401)', async () => {
      const schema = await buildRegistrySchema();
      for (const field of Object.values(schema.getQueryType()!.getFields())) {
        const { query, variables } = callFor('query', field);
        const { status, body } = await server.gql(query, variables);
        expect(body.errors?.[0]?.extensions?.code, field.name).to.equal('UNAUTHENTICATED');
        expect(status, field.name).to.equal(401);
      }
    });

    it('refuses introspection without a token too', async () => {
      const { body } = await server.gql(`{ __schema { queryType { name } } }`);
      expect(body.errors?.[0].extensions?.code).to.equal('UNAUTHENTICATED');
    });

    it('lets the read token and the admin token run queries', async () => {
      for (const token of [READER, ADMIN]) {
        const { body } = await server.gql(
          `{ resolveBindings(tool: "demo/mixed", project: "demo") { slotName } }`,
          {},
          bearer(token),
        );
        expect(body.errors, token).to.equal(undefined);
      }
    });

    it('refuses a wrong token on queries', async () => {
      expect(
        (await server.gql(`{ tools { totalCount } }`, {}, bearer('nope'))).body.errors?.[0].extensions?.code,
      ).to.equal('UNAUTHENTICATED');
    });
  });

  describe('start-up', () => {
    it('refuses to start in production without ADMIN_TOKEN, in one line', async () => {
      let error: Error | null = null;
      try {
        await bootstrap({ ...(await baseConfig()), production: true, adminToken: null });
      } catch (e) {
        error = e as Error;
      }
      expect(error?.message).to.equal(
        'ADMIN_TOKEN is required when NODE_ENV=production (without it anyone could change the registry)',
      );
    });

    it('warns loudly at start in open development mode', async () => {
      const lines = await captureLogs(async (logger) => {
        const app = await bootstrap(await baseConfig(), { logger });
        await app.close();
      });
      const warning = lines.find((l) => l.level === 40 && /OPEN DEVELOPMENT MODE/.test(l.msg));
      expect(warning, JSON.stringify(lines)).to.not.equal(undefined);
    });
  });

  it('never writes a token to the logs', async () => {
    const lines = await captureLogs(async (logger) => {
      const app = await bootstrap({ ...(await baseConfig()), adminToken: ADMIN, readToken: READER }, { logger });
      try {
        for (const token of [ADMIN, READER, 'some-wrong-token-123']) {
          await fetch(app.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...bearer(token) },
            body: JSON.stringify({ query: '{ tools { totalCount } }' }),
          });
          await fetch(app.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...bearer(token) },
            body: '{not json',
          });
        }
      } finally {
        await app.close();
      }
    });
    expect(lines.length).to.be.greaterThan(5);
    const text = JSON.stringify(lines);
    for (const token of [ADMIN, READER, 'some-wrong-token-123']) expect(text).to.not.include(token);
  });
});

async function baseConfig() {
  return {
    port: 0,
    host: '127.0.0.1',
    database: await sqlite.freshDatabase(),
    adminToken: null,
    readToken: null,
    demoData: false,
    production: false,
    logLevel: 'trace',
    introspection: true,
    execution: 'fast' as const,
    responseCache: true,
    recordCache: true,
  };
}
