// What the dashboard's browser tests share: Debian's Chromium through playwright-core, a watch on what a page
// requests and logs, waits that poll (the page's Content-Security-Policy forbids the eval that waitForFunction
// with a string needs), the demo registry extended through the API, an axe scan, and screenshots.
import AxeBuilder from '@axe-core/playwright';
import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page, type Request } from 'playwright-core';
import type { TestServer } from './server';

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

export const ADMIN_TOKEN = 'dashboard-test-admin-token-0123456789';

/** Screenshots are written only with UPDATE_SCREENSHOT=1, so ordinary runs leave the work tree alone. */
const SCREENSHOTS = process.env.UPDATE_SCREENSHOT === '1';
const DOCS = resolve(__dirname, '..', '..', 'docs');

/** Runs GraphQL as the admin. */
export function admin(server: TestServer) {
  return (query: string, variables: Record<string, unknown> = {}) =>
    server.data(query, variables, { authorization: `Bearer ${ADMIN_TOKEN}` });
}

export const REGISTER_TOOL = `mutation($i: RegisterToolInput!) { registerTool(input: $i) { registryVersion } }`;

/**
 * The demo registry, extended through the API: a second git-checkout linked to demo with no alias (so a
 * contextual git-checkout slot named neither "repo" nor "web-repo" is ambiguous there), a deferred case,
 * an optional one, and two more projects. The shop the docs' examples use (examples/shop.yaml) is removed
 * first, so the pages show the seed's example and these additions only (its removal is in the change log).
 */
export async function extendDemo(server: TestServer): Promise<void> {
  const run = admin(server);
  await run(`mutation { unregisterTool(ref: "acme/migrate") { registryVersion } }`);
  await run(`mutation { deleteProject(ref: "shop", force: true) { registryVersion } }`);
  for (const db of ['prod/orders-db', 'prod/users-db'])
    await run(`mutation($r: String!) { deleteResource(ref: $r) { registryVersion } }`, { r: db });
  await run(`mutation { deleteResourceType(ref: "database") { registryVersion } }`);
  await run(
    `mutation { registerResource(input: { name: "acme/web-repo", type: "git-checkout" }) { registryVersion } }`,
  );
  await run(`mutation { linkResource(input: { project: "demo", resource: "acme/web-repo" }) { registryVersion } }`);
  await run(`mutation { createProject(input: { name: "web" }) { registryVersion } }`);
  await run(
    `mutation { linkResource(input: { project: "web", resource: "acme/web-repo", alias: "site" }) { registryVersion } }`,
  );
  await run(`mutation { createProject(input: { name: "ops" }) { registryVersion } }`);
  await run(
    `mutation { linkResource(input: { project: "ops", resource: "local/shared-config" }) { registryVersion } }`,
  );
  const tool = (name: string, resourceSlots: Record<string, unknown>[]) =>
    run(REGISTER_TOOL, { i: { name, resourceSlots } });
  await tool('acme/build', [{ name: 'repo', resourceType: 'git-checkout' }]);
  await tool('acme/lint', [{ name: 'source', resourceType: 'git-checkout' }]);
  await tool('acme/deploy', [
    { name: 'repo', resourceType: 'git-checkout' },
    { name: 'target', resourceType: 'fs-directory', binding: 'PARAMETER', access: 'WRITE_ONLY' },
  ]);
  await tool('acme/cache', [{ name: 'cache', resourceType: 'fs-directory', required: false, access: 'READ_WRITE' }]);
}

/** Starts Chromium with a fresh profile, or skips (fails with REQUIRE_CHROMIUM=1) when it is not installed. */
export async function launch(
  context: Mocha.Context,
  options: { colorScheme?: 'light' | 'dark' } = {},
): Promise<{ browser: BrowserContext; profile: string }> {
  if (!existsSync(CHROMIUM)) {
    // CI installs Chromium (.ci/run) and sets REQUIRE_CHROMIUM=1, so there a missing browser fails the run.
    if (process.env.REQUIRE_CHROMIUM === '1')
      throw new Error(`Chromium is required (REQUIRE_CHROMIUM=1) but ${CHROMIUM} does not exist`);
    console.log(
      `    skipping the dashboard browser test: no Chromium at ${CHROMIUM} (install it with: apt-get install -y chromium; or set CHROMIUM_PATH)`,
    );
    context.skip();
  }
  const profile = mkdtempSync(join(tmpdir(), 'dashboard-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
    // Times as a person in Paris reads them, so the tests see a zone that is not UTC.
    timezoneId: 'Europe/Paris',
  });
  return { browser, profile };
}

/** Records what a page requests and every console error, uncaught exception and CSP violation. */
export function watch(page: Page) {
  const requests: Request[] = [];
  const sockets: string[] = [];
  const problems: string[] = [];
  page.on('request', (r) => requests.push(r));
  page.on('websocket', (ws) => sockets.push(ws.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return { requests, sockets, problems };
}

/** The GraphQL operations a page sent, by operation name, with their variables. */
export function operationsSent(requests: readonly Request[]): { name: string; variables: Record<string, unknown> }[] {
  return requests
    .filter((r) => r.method() === 'POST' && r.url().endsWith('/graphql'))
    .map((r) => {
      const body = JSON.parse(r.postData() ?? '{}') as { query?: string; variables?: Record<string, unknown> };
      return {
        name: /^\s*(?:query|mutation)\s+(\w+)/.exec(body.query ?? '')?.[1] ?? '',
        variables: body.variables ?? {},
      };
    });
}

export function cell(page: Page, project: string, tool: string) {
  return page.locator(`td[data-project="${project}"][data-tool="${tool}"]`);
}

/** Waits until the page's path (and query) below the origin is `path`. */
export async function waitForPath(page: Page, path: string): Promise<void> {
  await page.waitForFunction(
    (p) => (globalThis as any).location.pathname + (globalThis as any).location.search === p,
    path,
  );
}

/** Waits until `selector` matches exactly `count` elements. */
export async function waitForCount(page: Page, selector: string, count: number): Promise<void> {
  await page.waitForFunction(([sel, n]) => (globalThis as any).document.querySelectorAll(sel).length === n, [
    selector,
    count,
  ] as const);
}

/** The colour the browser paints an element's background. */
export function background(locator: Locator): Promise<string> {
  return locator.evaluate((el: any) => (globalThis as any).getComputedStyle(el).backgroundColor as string);
}

/** The element that has the focus, as a short description. */
export function focused(page: Page): Promise<string> {
  return page.evaluate(
    `(() => { const e = document.activeElement; return e ? (e.getAttribute('aria-label') || e.textContent || e.tagName).trim() : ''; })()`,
  );
}

/** Writes docs/screenshots/<name> (UPDATE_SCREENSHOT=1 only). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  const path = join(DOCS, 'screenshots', name);
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path });
  console.log(`    wrote ${path}`);
}

/**
 * Scans the page with axe-core (WCAG 2.x A and AA, and best practices) and fails on any serious or critical
 * violation, naming each rule and where it failed.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}, at ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    ),
    `axe on ${what}`,
  ).to.deep.equal([]);
}
