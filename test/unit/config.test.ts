import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { helpText } from '../../src/cli';
import { ConfigError, ENVIRONMENT, loadConfig, parseDatabaseUrl, VARIABLES } from '../../src/config';

const ROOT = join(__dirname, '..', '..');

/** The rows (variable, default) of the configuration table, wherever the docs keep it: README.md or docs/*.md. */
function documentedVariables(): Map<string, string | null> {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((name) => join('docs', name))];
  const rows = new Map<string, string | null>();
  // Every configuration table (README's, and those of the sections a variable belongs to), each row one variable.
  for (const file of files.filter((name) => name.endsWith('.md'))) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (let start = text.indexOf('| Variable | Default | Meaning |'); start >= 0;) {
      for (const line of text.slice(start).split('\n').slice(2)) {
        const cells = /^\| `([A-Z_]+)` \| (?:`([^`]*)`|—) \|/.exec(line);
        if (!cells) break;
        rows.set(cells[1], cells[2] ?? null);
      }
      start = text.indexOf('| Variable | Default | Meaning |', start + 1);
    }
  }
  if (rows.size === 0)
    throw new Error('no configuration table (| Variable | Default | Meaning |) in README.md or docs/*.md');
  return rows;
}

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

  it('reads BODY_TIMEOUT_MS (30 s by default)', () => {
    expect(loadConfig({})).to.deep.include({ bodyTimeoutMs: 30_000 });
    expect(loadConfig({ BODY_TIMEOUT_MS: '5000' })).to.deep.include({ bodyTimeoutMs: 5000 });
  });

  it('reads EXECUTION (fast by default, or reference)', () => {
    expect(loadConfig({})).to.deep.include({ execution: 'fast' });
    expect(loadConfig({ EXECUTION: 'reference' })).to.deep.include({ execution: 'reference' });
    expect(loadConfig({ EXECUTION: 'Fast' })).to.deep.include({ execution: 'fast' });
  });

  it('keeps RESPONSE_CACHE and RECORD_CACHE apart from EXECUTION, each on by default', () => {
    expect(loadConfig({ EXECUTION: 'reference' })).to.deep.include({ responseCache: true, recordCache: true });
    expect(loadConfig({ RECORD_CACHE: 'false' })).to.deep.include({
      execution: 'fast',
      responseCache: true,
      recordCache: false,
    });
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
      [{ EXECUTION: 'sometimes' }, /^EXECUTION must be one of fast, reference/],
      // The switches EXECUTION replaced are refused, not ignored: a server asked to run graphql-js must not run jit.
      [{ COMPILED_EXECUTION: 'false' }, /^COMPILED_EXECUTION is no longer read: use EXECUTION/],
      [{ DIRECT_EXECUTION: 'false' }, /^DIRECT_EXECUTION is no longer read: use EXECUTION/],
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
      [{ BODY_TIMEOUT_MS: '0' }, /^BODY_TIMEOUT_MS must be a whole number/],
      [{ BODY_TIMEOUT_MS: '2.5' }, /^BODY_TIMEOUT_MS must be a whole number/],
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

describe('the config schema (VARIABLES)', () => {
  it('declares each variable once', () => {
    const names = Object.values(VARIABLES).map((v) => v.name);
    expect(new Set(names).size).to.equal(names.length);
  });

  it('gives each default as loadConfig uses it: an empty environment reads the same as every default written out', () => {
    const written = Object.fromEntries(
      Object.values(VARIABLES)
        .filter((v) => v.default !== null)
        .map((v) => [v.name, v.default!]),
    );
    expect(loadConfig(written)).to.deep.equal(loadConfig({}));
  });

  it("matches the docs' configuration table: the same variables, each with the same default", () => {
    const documented = documentedVariables();
    const declared = new Map(ENVIRONMENT.map((v) => [v.name, v.default]));
    expect([...documented.keys()].sort()).to.deep.equal([...declared.keys()].sort());
    for (const [name, fallback] of declared) expect(documented.get(name), name).to.equal(fallback);
  });

  it('--help lists every variable with its default and description', () => {
    const lines = helpText().split('\n');
    for (const v of ENVIRONMENT) {
      const line = lines.find((l) => l.trimStart().startsWith(`${v.name} `));
      expect(line, v.name).to.be.a('string');
      expect(
        line!
          .trim()
          .split(/\s{2,}/)
          .slice(1),
      ).to.deep.equal([v.default ?? '-', v.description]);
    }
  });

  it('reads the new operations variables: METRICS, METRICS_TOKEN, LOG_FORMAT, SHUTDOWN_GRACE_MS, OTEL_EXPORTER_OTLP_ENDPOINT', () => {
    expect(loadConfig({})).to.deep.include({
      metrics: false,
      metricsToken: null,
      logFormat: 'auto',
      shutdownGraceMs: 10_000,
      tracingEndpoint: null,
    });
    expect(
      loadConfig({
        METRICS: 'true',
        METRICS_TOKEN: 'scrape-me',
        LOG_FORMAT: 'pretty',
        SHUTDOWN_GRACE_MS: '2500',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      }),
    ).to.deep.include({
      metrics: true,
      metricsToken: 'scrape-me',
      logFormat: 'pretty',
      shutdownGraceMs: 2500,
      tracingEndpoint: 'http://127.0.0.1:4318',
    });
    for (const [env, pattern] of [
      [{ LOG_FORMAT: 'xml' }, /^LOG_FORMAT must be one of auto, json, pretty/],
      [{ SHUTDOWN_GRACE_MS: '0' }, /^SHUTDOWN_GRACE_MS must be a whole number/],
      [{ METRICS: 'sometimes' }, /^METRICS must be true or false/],
    ] as const) {
      expect(() => loadConfig(env), JSON.stringify(env))
        .to.throw(ConfigError)
        .with.property('message')
        .that.matches(pattern);
    }
  });
});
