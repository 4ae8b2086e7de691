import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { postgres, requirePostgres } from '../support/backends';
import { gqlAt, spawnServer, type ServerProcess } from '../support/process-server';

const ADMIN = 'admin-token-0123456789';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * API tokens across two real server processes on one PostgreSQL database:
 * made on one instance, used on the other; an expired or revoked token is
 * refused at once on both (each caches tokens, tied to the registry version
 * every request reads). The secret is shown once and appears nowhere else:
 * not in either process's log, an error, the change log or the database.
 */
describe('API tokens on two instances (PostgreSQL, real processes)', function () {
  this.timeout(120_000);
  let a: ServerProcess;
  let b: ServerProcess;
  let databaseUrl: string;
  const secrets: string[] = [];
  /** Every response body the tests got but createApiToken's, errors included: grepped for secrets at the end. */
  const answers: string[] = [];

  const call = async (server: ServerProcess, token: string, query: string, variables?: Record<string, unknown>) => {
    const answer = await gqlAt(server.url, query, variables, bearer(token));
    answers.push(JSON.stringify(answer.body));
    return answer;
  };
  const ok = async (server: ServerProcess, token: string, query: string, variables?: Record<string, unknown>) => {
    const { status, body } = await call(server, token, query, variables);
    if (status !== 200 || body.errors) throw new Error(`${status} ${JSON.stringify(body.errors)}`);
    return body.data;
  };
  const whoAmI = async (server: ServerProcess, token: string) => {
    const { status, body } = await call(server, token, `{ viewer { principal } }`);
    return {
      status,
      principal: body.data?.viewer.principal,
      code: body.errors?.[0]?.extensions?.code,
      message: body.errors?.[0]?.message,
    };
  };
  /** Makes a token on A: its answer is the one place its secret is shown, so it is not kept with the others. */
  const create = async (name: string, extra: Record<string, unknown> = {}) => {
    const { body } = await gqlAt(
      a.url,
      `mutation($i: CreateApiTokenInput!) { createApiToken(input: $i) { secret token { id name principal expiresAt revokedAt } } }`,
      { i: { name, grants: [{ role: 'EDITOR', namespace: 'acme' }], ...extra } },
      bearer(ADMIN),
    );
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    secrets.push(body.data.createApiToken.secret);
    return body.data.createApiToken;
  };

  before(async function () {
    await requirePostgres(this);
    const database = await postgres.freshDatabase();
    if (database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    databaseUrl = database.url;
    const env = { DATABASE_URL: databaseUrl, ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'trace' };
    [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
    await ok(a, ADMIN, `mutation { registerResourceType(input: { name: "git-checkout" }) { dryRun } }`);
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
  });

  it('creates a token on A whose secret (trg_ and 32 random bytes) works on B, as token:<name>', async () => {
    const made = await create('ci-acme');
    expect(made.secret).to.match(/^trg_[A-Za-z0-9_-]{43}$/);
    expect(made.token).to.deep.include({ name: 'ci-acme', principal: 'token:ci-acme', revokedAt: null });
    expect(await whoAmI(b, made.secret)).to.deep.include({ status: 200, principal: 'token:ci-acme' });
    await ok(
      b,
      made.secret,
      `mutation { registerResource(input: { name: "acme/app-repo", type: "git-checkout" }) { dryRun } }`,
    );
    const log = await ok(a, ADMIN, `{ changes(filter: { ref: "acme/app-repo" }) { edges { node { actor } } } }`);
    expect(log.changes.edges.map((e: any) => e.node.actor)).to.deep.equal(['token:ci-acme']);
    const listed = await ok(
      a,
      ADMIN,
      `{ apiTokens { edges { node { name lastUsedAt createdBy grants { role namespace } } } } }`,
    );
    expect(listed.apiTokens.edges.map((e: any) => e.node)).to.deep.include.members([
      {
        name: 'ci-acme',
        lastUsedAt: listed.apiTokens.edges[0].node.lastUsedAt,
        createdBy: 'token:admin',
        grants: [{ role: 'EDITOR', namespace: 'acme' }],
      },
    ]);
    expect(listed.apiTokens.edges[0].node.lastUsedAt, 'its use was noted').to.be.a('string');
  });

  it('refuses what the token was not given, on either instance', async () => {
    const [secret] = secrets;
    for (const server of [a, b]) {
      const { body } = await call(
        server,
        secret,
        `mutation { createProject(input: { name: "globex/shop" }) { dryRun } }`,
      );
      expect(body.errors?.[0].extensions).to.deep.include({
        code: 'FORBIDDEN',
        principal: 'token:ci-acme',
        namespaces: ['globex'],
      });
    }
  });

  it('refuses an expired token on both instances (UNAUTHENTICATED, 401), with no restart', async () => {
    const expiresAt = new Date(Date.now() + 3_000).toISOString();
    const made = await create('short-lived', { expiresAt });
    expect(made.token.expiresAt).to.equal(expiresAt);
    expect((await whoAmI(b, made.secret)).principal).to.equal('token:short-lived');
    await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 200));
    for (const server of [a, b]) {
      const refused = await whoAmI(server, made.secret);
      expect(refused).to.deep.include({ status: 401, code: 'UNAUTHENTICATED' });
      expect(refused.message).to.match(/short-lived expired/);
    }
  });

  it('refuses a token revoked on A at once on B, though B had it cached', async () => {
    const made = await create('to-revoke');
    for (let i = 0; i < 3; i++) expect((await whoAmI(b, made.secret)).principal).to.equal('token:to-revoke');
    const revoked = await ok(
      a,
      ADMIN,
      `mutation { revokeApiToken(input: { ref: "to-revoke" }) { token { revokedAt grants { role } } } }`,
    );
    expect(revoked.revokeApiToken.token.revokedAt).to.be.a('string');
    expect(revoked.revokeApiToken.token.grants, 'its grants go with it').to.deep.equal([]);
    for (const server of [b, a]) {
      const refused = await whoAmI(server, made.secret);
      expect(refused).to.deep.include({ status: 401, code: 'UNAUTHENTICATED' });
      expect(refused.message).to.match(/to-revoke was revoked/);
      const write = await call(
        server,
        made.secret,
        `mutation { createProject(input: { name: "acme/after" }) { dryRun } }`,
      );
      expect(write.status).to.equal(401);
    }
  });

  it('never uses a token name twice, revoked ones included', async () => {
    const { body } = await call(
      a,
      ADMIN,
      `mutation { createApiToken(input: { name: "TO-REVOKE", grants: [{ role: VIEWER, namespace: "acme" }] }) { secret } }`,
    );
    expect(body.errors?.[0].extensions?.code).to.equal('CONFLICT');
  });

  it('keeps the secret out of every log line, error, change-log entry and row: only its SHA-256 is stored', async () => {
    const log = await ok(
      a,
      ADMIN,
      `{ changes(last: 100) { edges { node { actor operation kind entityName summary namespace } } } }`,
    );
    expect(log.changes.edges.some((e: any) => e.node.kind === 'API_TOKEN')).to.equal(true);
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    let rows: unknown[];
    let digests: string[];
    try {
      rows = [
        ...(await client.query('SELECT * FROM api_token')).rows,
        ...(await client.query('SELECT * FROM registry_change')).rows,
        ...(await client.query('SELECT * FROM role_grant')).rows,
      ];
      digests = (await client.query<{ secret_digest: string }>('SELECT secret_digest FROM api_token')).rows.map(
        (r) => r.secret_digest,
      );
    } finally {
      await client.end();
    }
    const places = {
      'A log': a.output.join(''),
      'B log': b.output.join(''),
      answers: answers.join('\n'),
      'change log': JSON.stringify(log),
      database: JSON.stringify(rows),
    };
    expect(places['A log'].length + places['B log'].length, 'the processes logged').to.be.greaterThan(1000);
    expect(secrets.length).to.equal(3);
    for (const secret of secrets) {
      for (const [where, text] of Object.entries(places)) {
        expect(text.includes(secret), `the secret is in the ${where}`).to.equal(false);
        expect(text.includes(secret.slice(4)), `the secret's random part is in the ${where}`).to.equal(false);
      }
      expect(digests).to.include(createHash('sha256').update(secret).digest('hex'));
    }
  });
});
