import { expect } from 'chai';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ensureDashboardBuilt } from '../../scripts/build-dashboard';
import { DASHBOARD_CONTENT_SECURITY_POLICY, defaultDashboardDir } from '../../src/http/dashboard';
import { BUNDLE_MANIFEST, type BundleManifest } from '../../src/http/web-bundle';
import { sqlite } from '../support/backends';
import { startServer, type TestServer } from '../support/server';

/** One HTTP exchange with the raw body (fetch would undo gzip). */
function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((done, fail) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

describe('dashboard over HTTP', function () {
  let server: TestServer;
  let manifest: BundleManifest;

  before(async function () {
    // From a fresh clone the bundle is built here once (a few seconds); later runs find it current.
    this.timeout(180_000);
    if ((await ensureDashboardBuilt()) === 'built')
      console.log(`    built the dashboard into ${defaultDashboardDir()} (it was missing or older than its sources)`);
    manifest = JSON.parse(readFileSync(join(defaultDashboardDir(), BUNDLE_MANIFEST), 'utf8')) as BundleManifest;
    server = await startServer(sqlite, { demoData: true });
  });

  after(async () => {
    await server?.close();
  });

  it('answers GET /dashboard with the page under a strict Content-Security-Policy, loading only same-origin files', async () => {
    const res = await get(`${server.origin}/dashboard`, { accept: 'text/html' });
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
    expect(res.headers['cache-control']).to.equal('no-cache');
    expect(res.headers['x-content-type-options']).to.equal('nosniff');
    expect(res.headers['content-security-policy']).to.equal(DASHBOARD_CONTENT_SECURITY_POLICY);
    const policy = new Map(
      DASHBOARD_CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]),
    );
    expect(policy.get('default-src')).to.equal("'none'");
    expect(policy.get('script-src')).to.equal("'self'");
    expect(policy.get('style-src'), 'no inline styles').to.equal("'self'");
    expect(policy.get('connect-src'), 'the POSTs and the WebSocket, same origin only').to.equal("'self'");

    const html = res.body.toString('utf8');
    expect(html).to.match(/^<!doctype html>/i);
    const refs = [...html.matchAll(/\b(?:src|href)\s*=\s*"([^"]*)"/g)].map((m) => m[1]);
    const urls = refs.map((ref) => new URL(ref, `${server.origin}/dashboard`));
    expect(urls.map((u) => u.pathname)).to.include.members([
      `/dashboard/${manifest.script}`,
      `/dashboard/${manifest.stylesheet}`,
    ]);
    for (const url of urls) if (url.protocol !== 'data:') expect(url.origin, url.href).to.equal(server.origin);
    expect(html, 'no absolute URL anywhere in the page').not.to.match(/(https?:)?\/\/[a-z0-9]/i);
  });

  it("answers every page's own URL with the same page, its files and root relative to where it is", async () => {
    const paths = [
      '/dashboard',
      '/dashboard/matrix?project=demo',
      '/dashboard/history',
      '/dashboard/tools',
      '/dashboard/tools/demo%2Fmixed',
      '/dashboard/tools/demo/mixed',
      '/dashboard/projects/demo',
      '/dashboard/resources/acme%2Fapp-repo',
      '/dashboard/types/fs-directory',
      '/dashboard/types/',
    ];
    for (const path of paths) {
      const res = await get(`${server.origin}${path}`, { accept: 'text/html' });
      expect(res.status, path).to.equal(200);
      expect(res.headers['content-security-policy'], path).to.equal(DASHBOARD_CONTENT_SECURITY_POLICY);
      const html = res.body.toString('utf8');
      const base = `${server.origin}${path}`;
      const refs = [...html.matchAll(/\b(?:src|href|data-root)\s*=\s*"([^"]*)"/g)].map(
        (m) => new URL(m[1], base).pathname,
      );
      expect(refs, path).to.include.members([
        `/dashboard/${manifest.script}`,
        `/dashboard/${manifest.stylesheet}`,
        '/dashboard/',
      ]);
    }
    // Names that are not views stay the bundle's files, or 404.
    expect((await get(`${server.origin}/dashboard/tool/x`)).status).to.equal(404);
  });

  it('with sign-in configured, names the provider and client in the page, and lets it connect to the issuer only', async () => {
    const issuer = 'https://id.example.test/realms/a&b';
    const signedIn = await startServer(sqlite, {
      demoData: true,
      oidc: {
        issuer,
        audience: 'https://registry.example.test/',
        jwksUrl: null,
        subjectClaim: 'sub',
        groupsClaim: 'groups',
        dashboardClientId: 'registry-dashboard',
      },
    });
    try {
      const res = await get(`${signedIn.origin}/dashboard/tools`, { accept: 'text/html' });
      expect(res.status).to.equal(200);
      const policy = String(res.headers['content-security-policy']);
      expect(policy).to.include("connect-src 'self' https://id.example.test;");
      expect(policy.replace(' https://id.example.test', '')).to.equal(DASHBOARD_CONTENT_SECURITY_POLICY);
      const html = res.body.toString('utf8');
      expect(html).to.include('data-oidc-issuer="https://id.example.test/realms/a&amp;b"');
      expect(html).to.include('data-oidc-client-id="registry-dashboard"');
      expect(html).to.include('data-oidc-audience="https://registry.example.test/"');
    } finally {
      await signedIn.close();
    }
    // Without sign-in the page names no provider.
    const plain = (await get(`${server.origin}/dashboard`, { accept: 'text/html' })).body.toString('utf8');
    expect(plain).not.to.include('data-oidc');
  });

  it('serves the hashed script and stylesheet cached for a year, gzipped when the client accepts it', async () => {
    expect(manifest.script).to.match(/^dashboard-[A-Z0-9]+\.js$/);
    expect(manifest.stylesheet).to.match(/^dashboard-[A-Z0-9]+\.css$/);
    for (const [name, type] of [
      [manifest.script, 'text/javascript; charset=utf-8'],
      [manifest.stylesheet, 'text/css; charset=utf-8'],
    ]) {
      const url = `${server.origin}/dashboard/${name}`;
      const plain = await get(url);
      expect(plain.status, name).to.equal(200);
      expect(plain.headers['content-type']).to.equal(type);
      expect(plain.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
      expect(plain.headers['content-encoding']).to.equal(undefined);
      expect(plain.headers.vary).to.equal('accept-encoding');
      expect(plain.body.length).to.be.greaterThan(1000);

      const gzipped = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
      expect(gzipped.headers['content-encoding']).to.equal('gzip');
      expect(gzipped.body.length).to.be.lessThan(plain.body.length);
      expect(gunzipSync(gzipped.body).equals(plain.body)).to.equal(true);

      const refused = await get(url, { 'accept-encoding': 'gzip;q=0, identity' });
      expect(refused.headers['content-encoding']).to.equal(undefined);
    }
  });

  it('sends /dashboard/ to /dashboard, and answers other names under /dashboard/ with the JSON 404', async () => {
    const slash = await get(`${server.origin}/dashboard/`);
    expect(slash.status).to.equal(301);
    expect(new URL(String(slash.headers.location), `${server.origin}/dashboard/`).pathname).to.equal('/dashboard');
    for (const path of ['/dashboard/nope.js', `/dashboard/${BUNDLE_MANIFEST}`, '/dashboard/..%2Fpackage.json']) {
      const res = await get(`${server.origin}${path}`);
      expect(res.status, path).to.equal(404);
      expect(JSON.parse(res.body.toString()).errors[0].extensions.code).to.equal('NOT_FOUND');
    }
  });

  it('without a built bundle: a 503 page that says how to build it, GraphQL unaffected, and the page once built', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dashboard-missing-'));
    const bare = await startServer(sqlite, { demoData: true }, { dashboardDir: join(dir, 'dashboard') });
    try {
      const missing = await get(`${bare.origin}/dashboard`, { accept: 'text/html' });
      expect(missing.status).to.equal(503);
      expect(missing.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(missing.headers['content-security-policy']).to.equal(DASHBOARD_CONTENT_SECURITY_POLICY);
      expect(missing.body.toString()).to.include('npm run build:dashboard');
      expect((await get(`${bare.origin}/dashboard/${manifest.script}`)).status).to.equal(404);
      expect(await bare.data('{ tool(ref: "demo/mixed") { name } }')).to.deep.equal({ tool: { name: 'demo/mixed' } });

      // Built while the server runs: the next request finds it.
      cpSync(defaultDashboardDir(), join(dir, 'dashboard'), { recursive: true });
      const page = await get(`${bare.origin}/dashboard`, { accept: 'text/html' });
      expect(page.status).to.equal(200);
      expect(page.body.toString()).to.include(manifest.script);
      expect((await get(`${bare.origin}/dashboard/${manifest.script}`)).status).to.equal(200);
    } finally {
      await bare.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
