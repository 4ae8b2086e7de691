import { expect } from 'chai';
import { exportJWK, exportSPKI, generateKeyPair, importJWK, SignJWT, UnsecuredJWT, type JWK } from 'jose';
import { captureLogs } from '../support/logs';
import { startOidcProvider, type TestOidcProvider } from '../support/oidc-provider';
import { sqlite } from '../support/backends';
import { startServer, type TestServer } from '../support/server';
import { collect, subscriptionClient } from '../support/subscriptions';

const ADMIN = 'admin-token-0123456789';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Signing in with OpenID Connect, against a real OpenID Provider (oidc-provider) started here on loopback: its
 * discovery document, its JWKS and the access tokens it issues through the authorization-code flow with PKCE.
 * The refused tokens are made with its own signing key (or none), each failing one check.
 */
describe('sign-in with OpenID Connect (a real provider)', function () {
  this.timeout(60_000);
  let provider: TestOidcProvider;
  let server: TestServer;
  const admin = (query: string, variables?: Record<string, unknown>) => server.data(query, variables, bearer(ADMIN));
  const as = (token: string, query: string, variables?: Record<string, unknown>) =>
    server.gql(query, variables, bearer(token));

  before(async () => {
    provider = await startOidcProvider({
      users: { alice: { groups: ['acme-devs'] }, bob: {} },
    });
    server = await startServer(sqlite, {
      adminToken: ADMIN,
      oidc: {
        issuer: provider.issuer,
        audience: provider.audience,
        jwksUrl: null,
        subjectClaim: 'sub',
        groupsClaim: 'groups',
        dashboardClientId: provider.clientId,
        // A rotated key is fetched at once here (30 s by default).
        jwksCooldownMs: 0,
      },
    });
    await admin(`mutation { registerResourceType(input: { name: "git-checkout" }) { dryRun } }`);
    await admin(
      `mutation { grantRole(input: { principal: "group:acme-devs", role: EDITOR, namespace: "acme" }) { grant { id } } }`,
    );
  });
  after(async () => {
    await server?.close();
    await provider?.close();
  });

  /** A token signed with `key` (the provider's own unless given), with claims that pass unless overridden. */
  async function token(claims: Record<string, unknown>, key: JWK = provider.signingKey()) {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ sub: 'alice', groups: ['acme-devs'], ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
      .setIssuer(provider.issuer)
      .setAudience(provider.audience)
      .setIssuedAt(now - 10)
      .setExpirationTime((claims.exp as number | undefined) ?? now + 300)
      .sign(await importJWK(key, 'RS256'));
  }

  /** The refusal of a request with this bearer: status, code and message. */
  async function refusal(bearerToken: string) {
    const { status, body } = await as(bearerToken, `{ viewer { principal } }`);
    return { status, code: body.errors?.[0]?.extensions?.code, message: String(body.errors?.[0]?.message) };
  }

  it('knows a signed-in user as user:<sub>, with its groups as group:<name>', async () => {
    const { accessToken } = await provider.signIn('alice');
    const viewer = (await as(accessToken, `{ viewer { principal groups grants { principal role namespace } } }`)).body
      .data.viewer;
    expect(viewer).to.deep.equal({
      principal: 'user:alice',
      groups: ['group:acme-devs'],
      grants: [{ principal: 'group:acme-devs', role: 'EDITOR', namespace: 'acme' }],
    });
  });

  it('lets a user change what its group edits, and records it as the actor', async () => {
    const { accessToken } = await provider.signIn('alice');
    const { body } = await as(
      accessToken,
      `mutation { registerResource(input: { name: "acme/app-repo", type: "git-checkout" }) { resource { name } } }`,
    );
    expect(body.errors).to.equal(undefined);
    const log = await admin(`{ changes(filter: { ref: "acme/app-repo" }) { edges { node { actor } } } }`);
    expect(log.changes.edges.map((e: any) => e.node.actor)).to.deep.equal(['user:alice']);
  });

  it('refuses a user without a grant there (FORBIDDEN), and lets it once a grant is given, with no restart', async () => {
    const { accessToken } = await provider.signIn('bob');
    const register = `mutation { registerResource(input: { name: "acme/bobs", type: "git-checkout" }) { resource { name } } }`;
    const refused = (await as(accessToken, register)).body;
    expect(refused.errors?.[0].extensions).to.deep.include({ code: 'FORBIDDEN', principal: 'user:bob' });
    await admin(`mutation { grantRole(input: { principal: "user:bob", role: EDITOR, namespace: "acme" }) { dryRun } }`);
    expect((await as(accessToken, register)).body.errors).to.equal(undefined);
  });

  it('takes the groups of each token: a group grant does nothing for a user the provider does not put in it', async () => {
    const outsider = await token({ sub: 'carol', groups: ['globex-devs'] });
    const { body } = await as(
      outsider,
      `mutation { registerResource(input: { name: "acme/carols", type: "git-checkout" }) { dryRun } }`,
    );
    expect(body.errors?.[0].extensions?.code).to.equal('FORBIDDEN');
  });

  it('refuses an expired token (past the 30 s leeway): UNAUTHENTICATED, 401, "expired"', async () => {
    const expired = await token({ exp: Math.floor(Date.now() / 1000) - 60 });
    expect(await refusal(expired)).to.deep.include({ status: 401, code: 'UNAUTHENTICATED' });
    expect((await refusal(expired)).message).to.match(/expired/);
  });

  it('accepts a token that expired less than 30 s ago (clock skew)', async () => {
    const justExpired = await token({ exp: Math.floor(Date.now() / 1000) - 5 });
    expect((await as(justExpired, `{ viewer { principal } }`)).body.data?.viewer.principal).to.equal('user:alice');
  });

  it('refuses a token for another audience, issued by the provider itself: "wrong audience"', async () => {
    const { accessToken } = await provider.signIn('alice', { resource: 'https://another-service.test/' });
    const refused = await refusal(accessToken);
    expect(refused).to.deep.include({ status: 401, code: 'UNAUTHENTICATED' });
    expect(refused.message).to.match(/wrong audience/);
  });

  it('refuses a token signed with a key the issuer does not publish: "unknown signing key"', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const stranger = { ...(await exportJWK(privateKey)), kid: 'not-the-providers' };
    const refused = await refusal(await token({}, stranger));
    expect(refused).to.deep.include({ status: 401, code: 'UNAUTHENTICATED' });
    expect(refused.message).to.match(/unknown signing key/);
  });

  it('refuses an unsigned token (alg: none)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const unsigned = new UnsecuredJWT({ sub: 'alice', groups: ['acme-devs'] })
      .setIssuer(provider.issuer)
      .setAudience(provider.audience)
      .setExpirationTime(now + 300)
      .encode();
    const refused = await refusal(unsigned);
    expect(refused).to.deep.include({ status: 401, code: 'UNAUTHENTICATED' });
    expect(refused.message).to.match(/signing algorithm not allowed/);
  });

  it("refuses an HS256 token whose HMAC key is the provider's public key (algorithm confusion)", async () => {
    const publicKey = await importJWK({ kty: 'RSA', n: provider.signingKey().n, e: provider.signingKey().e }, 'RS256');
    const pem = await exportSPKI(publicKey);
    const now = Math.floor(Date.now() / 1000);
    const forged = await new SignJWT({ sub: 'alice', groups: ['acme-devs'] })
      .setProtectedHeader({ alg: 'HS256', kid: provider.signingKey().kid })
      .setIssuer(provider.issuer)
      .setAudience(provider.audience)
      .setExpirationTime(now + 300)
      .sign(new TextEncoder().encode(pem));
    const refused = await refusal(forged);
    expect(refused).to.deep.include({ status: 401, code: 'UNAUTHENTICATED' });
    expect(refused.message).to.match(/signing algorithm not allowed/);
  });

  it('follows a key rotation without a restart: a token signed with the new key is verified', async () => {
    const before = await provider.signIn('alice');
    expect((await as(before.accessToken, `{ viewer { principal } }`)).body.data?.viewer.principal).to.equal(
      'user:alice',
    );
    const fetches = provider.jwksFetches;
    await provider.rotateKeys();
    const after = await provider.signIn('alice');
    expect(after.accessToken.split('.')[0]).to.not.equal(before.accessToken.split('.')[0]);
    expect((await as(after.accessToken, `{ viewer { principal } }`)).body.data?.viewer.principal).to.equal(
      'user:alice',
    );
    expect(provider.jwksFetches, 'the keys were fetched again for the new key id').to.be.greaterThan(fetches);
  });

  it('never echoes a token, nor writes one to the log', async () => {
    const sent: string[] = [];
    const lines = await captureLogs(async (logger) => {
      const logged = await startServer(
        sqlite,
        { adminToken: ADMIN, logLevel: 'trace', oidc: server.config.oidc },
        { logger },
      );
      try {
        const expired = await token({ exp: Math.floor(Date.now() / 1000) - 60 });
        const { accessToken } = await provider.signIn('alice', { resource: 'https://another-service.test/' });
        const { accessToken: good } = await provider.signIn('alice');
        for (const jwt of [expired, accessToken, good]) {
          sent.push(jwt);
          const { body } = await logged.gql(`{ viewer { principal } }`, {}, bearer(jwt));
          expect(JSON.stringify(body)).to.not.include(jwt.split('.')[2]);
        }
        await logged.gql(`mutation { createProject(input: { name: "acme/logged" }) { dryRun } }`, {}, bearer(good));
      } finally {
        await logged.close();
      }
    });
    expect(lines.length).to.be.greaterThan(3);
    const text = JSON.stringify(lines);
    for (const jwt of sent) for (const part of jwt.split('.')) expect(text).to.not.include(part);
  });

  it("authenticates a subscription by connection_init's authorization the same way", async () => {
    const { accessToken } = await provider.signIn('alice');
    const signedIn = subscriptionClient(server.url, { connectionParams: { authorization: `Bearer ${accessToken}` } });
    const expired = await token({ exp: Math.floor(Date.now() / 1000) - 60 });
    const refused = subscriptionClient(server.url, { connectionParams: { authorization: `Bearer ${expired}` } });
    const query = `subscription { registryChanged(afterVersion: 0) { actor } }`;
    try {
      const { items, errors } = await collect<{ actor: string }>(signedIn, query, {}, (got) => got.length >= 1);
      expect(errors, JSON.stringify(errors)).to.deep.equal([]);
      expect(items[0].actor).to.equal('token:admin');
      const denied = await collect(refused, query, {}, () => true, 3000);
      expect(denied.errors).to.have.length(1);
      expect(refused.closes.map((c) => c.code)).to.include(4403);
    } finally {
      await Promise.all([signedIn.dispose(), refused.dispose()]);
    }
  });
});
