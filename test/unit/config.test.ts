import { expect } from 'chai';
import { ConfigError, loadConfig, parseDatabaseUrl } from '../../src/config';

describe('loadConfig', () => {
  it('has defaults: port 4000, the embedded SQLite file, demo data, introspection', () => {
    const config = loadConfig({});
    expect(config).to.deep.include({
      port: 4000,
      host: '127.0.0.1',
      demoData: true,
      introspection: true,
      production: false,
      adminToken: null,
    });
    expect(config.database).to.deep.equal({ kind: 'sqlite', path: './data/registry.sqlite' });
  });

  it('reads PORT, DATABASE_URL, ADMIN_TOKEN, DEMO_DATA and NODE_ENV', () => {
    const config = loadConfig({
      PORT: '5000',
      DATABASE_URL: 'postgres://u@h:5432/db',
      ADMIN_TOKEN: 'a-long-admin-token-123',
      DEMO_DATA: 'false',
      NODE_ENV: 'production',
    });
    expect(config).to.deep.include({
      port: 5000,
      adminToken: 'a-long-admin-token-123',
      demoData: false,
      production: true,
    });
    expect(config.database).to.deep.equal({ kind: 'postgres', url: 'postgres://u@h:5432/db' });
  });

  it('reads CORS_ORIGINS (none by default) and HTTP_CACHE_CONTROL (no-cache by default)', () => {
    expect(loadConfig({})).to.deep.include({ corsOrigins: [], httpCacheControl: 'no-cache' });
    expect(
      loadConfig({
        CORS_ORIGINS: 'https://app.example.com, http://localhost:5173',
        HTTP_CACHE_CONTROL: 'private,max-age=60',
      }),
    ).to.deep.include({
      corsOrigins: ['https://app.example.com', 'http://localhost:5173'],
      httpCacheControl: 'private, max-age=60',
    });
  });

  it('reads COMPILED_EXECUTION (on by default)', () => {
    expect(loadConfig({})).to.deep.include({ compiledExecution: true });
    expect(loadConfig({ COMPILED_EXECUTION: 'false' })).to.deep.include({ compiledExecution: false });
  });

  it('reads RECORD_CACHE (on by default)', () => {
    expect(loadConfig({})).to.deep.include({ recordCache: true });
    expect(loadConfig({ RECORD_CACHE: 'false' })).to.deep.include({ recordCache: false });
  });

  it('reads READ_AUTH (open by default) and the OIDC settings (none by default; claims sub and groups)', () => {
    expect(loadConfig({})).to.deep.include({ readAuth: 'open', oidc: null });
    expect(loadConfig({ READ_AUTH: 'required' })).to.deep.include({ readAuth: 'required' });
    expect(
      loadConfig({ OIDC_ISSUER: 'https://login.example.com/', OIDC_AUDIENCE: 'https://registry.example.com' }).oidc,
    ).to.deep.equal({
      issuer: 'https://login.example.com/',
      audience: 'https://registry.example.com',
      jwksUrl: null,
      subjectClaim: 'sub',
      groupsClaim: 'groups',
      dashboardClientId: null,
    });
    expect(
      loadConfig({
        NODE_ENV: 'production',
        ADMIN_TOKEN: 'a-long-admin-token-123',
        OIDC_ISSUER: 'http://127.0.0.1:8080',
        OIDC_AUDIENCE: 'registry',
        OIDC_JWKS_URL: 'https://keys.example.com/jwks',
        OIDC_SUBJECT_CLAIM: 'email',
        OIDC_GROUPS_CLAIM: 'https://example.com/groups',
        OIDC_DASHBOARD_CLIENT_ID: 'registry-dashboard',
      }).oidc,
      'http on a loopback host is allowed in production',
    ).to.deep.include({
      jwksUrl: 'https://keys.example.com/jwks',
      subjectClaim: 'email',
      groupsClaim: 'https://example.com/groups',
      dashboardClientId: 'registry-dashboard',
    });
  });

  it('accepts sqlite::memory:', () => {
    expect(parseDatabaseUrl('sqlite::memory:')).to.deep.equal({ kind: 'sqlite', path: ':memory:' });
  });

  it('refuses bad values with a one-line message naming the variable', () => {
    for (const [env, pattern] of [
      [{ PORT: 'abc' }, /^PORT /],
      [{ PORT: '70000' }, /^PORT /],
      [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL /],
      [{ DATABASE_URL: 'sqlite:' }, /^DATABASE_URL /],
      [{ DEMO_DATA: 'maybe' }, /^DEMO_DATA /],
      [{ COMPILED_EXECUTION: 'sometimes' }, /^COMPILED_EXECUTION /],
      [{ RECORD_CACHE: 'maybe' }, /^RECORD_CACHE /],
      [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL /],
      [{ NODE_ENV: 'production' }, /^ADMIN_TOKEN is required when NODE_ENV=production/],
      [{ NODE_ENV: 'production', ADMIN_TOKEN: 'short' }, /^ADMIN_TOKEN must be at least 16 characters/],
      [
        { NODE_ENV: 'production', ADMIN_TOKEN: 'a-long-admin-token-123', READ_TOKEN: 'short' },
        /^READ_TOKEN must be at least 16/,
      ],
      [{ ADMIN_TOKEN: 'same-token', READ_TOKEN: 'same-token' }, /^READ_TOKEN must differ from ADMIN_TOKEN/],
      [{ CORS_ORIGINS: '*' }, /^CORS_ORIGINS entry 1 must be an origin/],
      [{ CORS_ORIGINS: 'https://ok.example, https://app.example.com/' }, /^CORS_ORIGINS entry 2 must be an origin/],
      [{ CORS_ORIGINS: 'app.example.com' }, /^CORS_ORIGINS entry 1 /],
      [{ CORS_ORIGINS: 'ftp://files.example.com' }, /^CORS_ORIGINS entry 1 /],
      [{ HTTP_CACHE_CONTROL: 'max-age=60\r\nSet-Cookie: x=1' }, /^HTTP_CACHE_CONTROL must be a Cache-Control value/],
      [{ HTTP_CACHE_CONTROL: 'no-cache;' }, /^HTTP_CACHE_CONTROL /],
      [{ READ_AUTH: 'sometimes' }, /^READ_AUTH must be open or required/],
      [{ OIDC_ISSUER: 'https://login.example.com' }, /^OIDC_AUDIENCE is required with OIDC_ISSUER/],
      [{ OIDC_AUDIENCE: 'registry' }, /^OIDC_AUDIENCE is set but OIDC_ISSUER is not/],
      [{ OIDC_ISSUER: 'login.example.com', OIDC_AUDIENCE: 'r' }, /^OIDC_ISSUER must be a URL/],
      [
        {
          NODE_ENV: 'production',
          ADMIN_TOKEN: 'a-long-admin-token-123',
          OIDC_ISSUER: 'http://idp.internal',
          OIDC_AUDIENCE: 'r',
        },
        /^OIDC_ISSUER must use https/,
      ],
      [
        { OIDC_ISSUER: 'https://idp', OIDC_AUDIENCE: 'r', OIDC_GROUPS_CLAIM: 'my groups' },
        /^OIDC_GROUPS_CLAIM must be a claim name/,
      ],
    ] as const) {
      expect(() => loadConfig(env), JSON.stringify(env))
        .to.throw(ConfigError)
        .with.property('message')
        .that.matches(pattern)
        .and.not.include('\n');
    }
  });
});
