import { expect } from 'chai';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { chromium, type BrowserContext, type Page, type Request } from 'playwright-core';
import { ensureGraphiqlBuilt } from '../../scripts/build-graphiql';
import { defaultGraphiqlDir, GRAPHIQL_MANIFEST, type GraphiqlManifest } from '../../src/http/graphiql';
import { sqlite } from '../support/backends';
import { startServer, type TestServer } from '../support/server';

/** Debian's Chromium; playwright's own browser download cannot work here. */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Written only with UPDATE_SCREENSHOT=1, so ordinary runs leave the work tree alone. */
const SCREENSHOT = resolve(__dirname, '..', '..', 'docs', 'graphiql.png');

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

/** Every src= and href= in an HTML page. */
function referencedUrls(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href)\s*=\s*"([^"]*)"/g)].map((m) => m[1]);
}

describe('GraphiQL', function () {
  let server: TestServer;
  let manifest: GraphiqlManifest;

  before(async function () {
    // From a fresh clone the bundle is built here once (a few seconds); later runs find it current.
    this.timeout(180_000);
    if ((await ensureGraphiqlBuilt()) === 'built')
      console.log(
        `    built the GraphiQL bundle into ${defaultGraphiqlDir()} (it was missing or older than its sources)`,
      );
    manifest = JSON.parse(readFileSync(join(defaultGraphiqlDir(), GRAPHIQL_MANIFEST), 'utf8')) as GraphiqlManifest;
    server = await startServer(sqlite, { demoData: true });
  });

  after(async () => {
    await server?.close();
  });

  describe('over HTTP', () => {
    it('answers a browser GET /graphql with the page, which loads only same-origin files', async () => {
      const res = await get(server.url, { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' });
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(res.headers['cache-control']).to.equal('no-cache');
      expect(res.headers['content-security-policy'])
        .to.include("default-src 'none'")
        .and.include("connect-src 'self'")
        .and.include("script-src 'self'");
      const html = res.body.toString('utf8');
      expect(html).to.match(/^<!doctype html>/i);

      const urls = referencedUrls(html).map((ref) => new URL(ref, server.url));
      expect(urls.map((u) => u.pathname)).to.include.members([
        `/graphiql/${manifest.script}`,
        `/graphiql/${manifest.stylesheet}`,
      ]);
      for (const url of urls) {
        if (url.protocol === 'data:') continue;
        expect(url.origin, url.href).to.equal(server.origin);
      }
      expect(html, 'no absolute URL anywhere in the page').not.to.match(/(https?:)?\/\/[a-z0-9]/i);
    });

    it('serves the bundle with long-lived caching, gzipped when asked', async () => {
      for (const [name, type] of [
        [manifest.script, 'text/javascript; charset=utf-8'],
        [manifest.stylesheet, 'text/css; charset=utf-8'],
      ]) {
        const url = `${server.origin}/graphiql/${name}`;
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

    it('answers other names under /graphiql/ with the JSON 404', async () => {
      for (const path of ['/graphiql/nope.js', `/graphiql/${GRAPHIQL_MANIFEST}`, '/graphiql/..%2Fpackage.json']) {
        const res = await get(`${server.origin}${path}`);
        expect(res.status, path).to.equal(404);
        expect(JSON.parse(res.body.toString()).errors[0].extensions.code).to.equal('NOT_FOUND');
      }
    });

    it('still answers GraphQL, not the page, to GETs that ask for JSON', async () => {
      const empty = await get(server.url, { accept: 'application/json' });
      expect(empty.status).to.equal(400);
      expect(empty.headers['content-type']).to.match(/^application\/json/);
      expect(empty.headers['content-security-policy']).to.equal(undefined);
      expect(JSON.parse(empty.body.toString()).errors).to.have.length(1);

      const query = await get(`${server.url}?query=${encodeURIComponent('{ tool(ref: "demo/mixed") { name } }')}`, {
        accept: 'application/json',
        'apollo-require-preflight': 'true',
      });
      expect(query.status).to.equal(200);
      expect(JSON.parse(query.body.toString())).to.deep.equal({ data: { tool: { name: 'demo/mixed' } } });
    });

    it('keeps CSRF prevention: a simple GET with a query and no preflight header is refused', async () => {
      const res = await get(`${server.url}?query=${encodeURIComponent('{ __typename }')}`, {
        accept: 'application/json',
      });
      expect(res.status).to.equal(400);
      expect(res.body.toString()).to.include('Cross-Site Request Forgery');
    });

    it('without a built bundle: a 503 page that says how to build it, GraphQL unaffected, and the page once built', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'graphiql-missing-'));
      const bare = await startServer(sqlite, { demoData: true }, { graphiqlDir: join(dir, 'graphiql') });
      try {
        const missing = await get(bare.url, { accept: 'text/html' });
        expect(missing.status).to.equal(503);
        expect(missing.headers['content-type']).to.equal('text/html; charset=utf-8');
        expect(missing.body.toString()).to.include('npm run build:graphiql');
        expect((await get(`${bare.origin}/graphiql/${manifest.script}`)).status).to.equal(404);
        expect(await bare.data('{ tool(ref: "demo/mixed") { name } }')).to.deep.equal({ tool: { name: 'demo/mixed' } });

        // Built while the server runs: the next request finds it.
        cpSync(defaultGraphiqlDir(), join(dir, 'graphiql'), { recursive: true });
        const page = await get(bare.url, { accept: 'text/html' });
        expect(page.status).to.equal(200);
        expect(page.body.toString()).to.include(manifest.script);
        expect((await get(`${bare.origin}/graphiql/${manifest.script}`)).status).to.equal(200);
      } finally {
        await bare.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('in Chromium', function () {
    this.timeout(60_000);
    let context: BrowserContext;
    let userDataDir: string;
    let page: Page;
    /** Every request the page made, and every console error, uncaught exception and CSP violation. */
    const requests: Request[] = [];
    const problems: string[] = [];

    before(async function () {
      if (!existsSync(CHROMIUM)) {
        // CI installs Chromium (.ci/run) and sets REQUIRE_CHROMIUM=1, so there a missing browser fails the run.
        if (process.env.REQUIRE_CHROMIUM === '1')
          throw new Error(`Chromium is required (REQUIRE_CHROMIUM=1) but ${CHROMIUM} does not exist`);
        console.log(
          `    skipping the GraphiQL browser test: no Chromium at ${CHROMIUM} (install it with: apt-get install -y chromium; or set CHROMIUM_PATH)`,
        );
        this.skip();
      }
      userDataDir = mkdtempSync(join(tmpdir(), 'graphiql-chromium-'));
      context = await chromium.launchPersistentContext(userDataDir, {
        executablePath: CHROMIUM,
        args: CHROMIUM_ARGS,
        viewport: { width: 1440, height: 1000 },
      });
      page = context.pages()[0] ?? (await context.newPage());
      page.on('request', (r) => requests.push(r));
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      await page.goto(server.url);
    });

    after(async () => {
      await context?.close();
      if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    });

    /** Clicks ▶, picks the operation from GraphiQL's menu of the document's operations, and returns the response to the POST it sent. */
    async function run(operationName: string) {
      const response = page.waitForResponse(
        (r) => r.request().method() === 'POST' && r.request().postDataJSON()?.operationName === operationName,
      );
      await page.locator('.graphiql-execute-button').click();
      const choice = page.getByRole('menuitem', { name: operationName });
      await choice.waitFor();
      expect(await page.getByRole('menuitem').allInnerTexts()).to.deep.equal([
        'ResolveDemoTool',
        'ToolsWithSlots',
        'PreviewUnlink',
        'RecentChanges',
      ]);
      await choice.click();
      return response;
    }

    const result = () => page.locator('section.result-window');

    it('opens with the example document and runs its first operation: the demo tool resolved in the demo project', async () => {
      expect(await page.title()).to.include('GraphiQL');
      // CodeMirror renders only the lines in view; the menu in run() lists both operations of the document.
      await page.locator('.graphiql-query-editor').getByText('query ResolveDemoTool').waitFor();

      const response = await run('ResolveDemoTool');
      expect(response.status()).to.equal(200);
      await result().getByText('"acme/app-repo"').waitFor();
      const shown = await result().innerText();
      for (const text of [
        '"repo"',
        '"CONTEXTUAL"',
        '"git-checkout"',
        '"config"',
        '"STATIC"',
        '"local/shared-config"',
        '"output"',
        '"PARAMETER"',
        '"WRITE_ONLY"',
      ]) {
        expect(shown, text).to.include(text);
      }
      expect(
        (await response.json()).data.resolveBindings.map((b: { slotName: string; deferred: boolean }) => [
          b.slotName,
          b.deferred,
        ]),
      ).to.deep.equal([
        ['repo', false],
        ['config', false],
        ['output', true],
      ]);

      if (process.env.UPDATE_SCREENSHOT === '1') {
        // Scroll the editor past the introduction, so the picture shows the operation beside its result.
        await page.locator('.graphiql-query-editor .CodeMirror').hover();
        await page.mouse.wheel(0, 200);
        // A function, not a string: the page's CSP forbids the eval a string needs (the tests have no DOM types).
        await page.waitForFunction(
          () => (globalThis as any).document.querySelector('.graphiql-query-editor .CodeMirror-scroll').scrollTop > 0,
        );
        mkdirSync(dirname(SCREENSHOT), { recursive: true });
        await page.screenshot({ path: SCREENSHOT });
        console.log(`    wrote ${SCREENSHOT}`);
      }
    });

    it('runs the second operation: the tools with their slots and slot types', async () => {
      const response = await run('ToolsWithSlots');
      expect(response.status()).to.equal(200);
      await result().getByText('"totalCount"').waitFor();
      const shown = await result().innerText();
      expect(shown)
        .to.include('"demo/mixed"')
        .and.include('"resourceSlots"')
        .and.include('"subtypes"')
        .and.include('"fs-directory"');
      const body = await response.json();
      expect(body.errors).to.equal(undefined);
      // The demo's tools by name: the shop's acme/migrate, then demo/mixed.
      const tools = body.data.tools.edges.map((e: { node: { name: string; resourceSlots: { name: string }[] } }) => [
        e.node.name,
        e.node.resourceSlots.map((slot) => slot.name),
      ]);
      expect(tools).to.deep.equal([
        ['acme/migrate', ['db']],
        ['demo/mixed', ['repo', 'config', 'output']],
      ]);
    });

    it('runs the third operation: a dry run of an unlink, showing its binding impact and storing nothing', async () => {
      const response = await run('PreviewUnlink');
      expect(response.status()).to.equal(200);
      await result().getByText('"NO_MATCH"').waitFor();
      const body = await response.json();
      expect(body.data.unlinkResource).to.deep.include({ dryRun: true });
      expect(body.data.unlinkResource.impact).to.deep.equal({
        totalCount: 1,
        changes: [
          {
            toolName: 'demo/mixed',
            projectName: 'demo',
            slotName: 'repo',
            before: { status: 'BOUND', resourceName: 'acme/app-repo' },
            after: { status: 'FAILED', reason: 'NO_MATCH' },
          },
        ],
      });
      expect(
        (await server.data(`{ project(ref: "demo") { resources { resource { name } } } }`)).project.resources,
      ).to.have.length(1);
    });

    it('runs the fourth operation: the change log of the demo data', async () => {
      const response = await run('RecentChanges');
      await result().getByText('"totalCount"').waitFor();
      const body = await response.json();
      expect(body.data.changes.edges.map((e: any) => e.node.operation)).to.include.members([
        'registerResourceType',
        'linkResource',
        'registerTool',
      ]);
    });

    it('sends what is typed in the headers editor with the request', async () => {
      // The server echoes a well-formed x-request-id; an Authorization header travels the same way.
      const headers = page.locator(
        'section.graphiql-editor-tool[aria-label="Headers"] .graphiql-editor:not(.hidden) .CodeMirror',
      );
      await headers.click();
      await page.keyboard.insertText('{"x-request-id": "graphiql-headers-editor"}');
      const response = await run('ResolveDemoTool');
      expect(response.request().headers()['x-request-id']).to.equal('graphiql-headers-editor');
      expect(response.headers()['x-request-id']).to.equal('graphiql-headers-editor');
    });

    it('requested nothing from any other host, and logged no error', () => {
      const origin = new URL(server.url);
      const seen = requests.map((r) => r.url());
      const offHost = seen.filter((url) => {
        const { protocol, host } = new URL(url);
        return protocol !== 'data:' && protocol !== 'blob:' && host !== origin.host;
      });
      expect(offHost).to.deep.equal([]);
      expect(seen, 'the page, its script and stylesheet, and the POSTs').to.include.members([
        server.url,
        `${origin.origin}/graphiql/${manifest.script}`,
        `${origin.origin}/graphiql/${manifest.stylesheet}`,
      ]);
      expect(problems).to.deep.equal([]);
    });
  });
});
