// The dashboard in a real browser (Debian's Chromium, driven by playwright-core), used as a person would:
// reading the matrix, opening a cell, watching changes made through the API arrive live, typing a token,
// previewing a delete before confirming it. Strings passed to page.evaluate run in the page (the tests'
// tsconfig has no DOM types). test/integration/dashboard-pages.test.ts covers every page, search and the edits.
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { ensureDashboardBuilt } from '../../scripts/build-dashboard';
import { defaultDashboardDir } from '../../src/http/dashboard';
import { sqlite } from '../support/backends';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import {
  ADMIN_TOKEN,
  admin,
  background,
  cell,
  expectAccessible,
  extendDemo,
  launch,
  REGISTER_TOOL,
  waitForCount,
  waitForPath,
  watch,
} from '../support/dashboard-browser';
import { startServer, type TestServer } from '../support/server';

/** The colours of the four cell statuses (style.css), as the browser computes them. */
const COLOURS = {
  READY: 'rgb(46, 125, 50)',
  DEFERRED: 'rgb(21, 101, 192)',
  OPTIONAL_UNBOUND: 'rgb(242, 176, 30)',
  FAILED: 'rgb(198, 40, 40)',
} as const;

type Status = keyof typeof COLOURS;

async function waitForStatus(page: Page, project: string, tool: string, status: Status): Promise<void> {
  await page.locator(`td[data-project="${project}"][data-tool="${tool}"][data-status="${status}"]`).waitFor();
}

describe('dashboard in Chromium', function () {
  this.timeout(60_000);
  let server: TestServer;
  let browser: BrowserContext;
  let profile: string;
  let page: Page;
  let seen: ReturnType<typeof watch>;

  before(async function () {
    this.timeout(180_000);
    if ((await ensureDashboardBuilt()) === 'built')
      console.log(`    built the dashboard into ${defaultDashboardDir()} (it was missing or older than its sources)`);
    ({ browser, profile } = await launch(this));
    server = await startServer(sqlite, { demoData: true, adminToken: ADMIN_TOKEN });
    await extendDemo(server);
    page = browser.pages()[0] ?? (await browser.newPage());
    seen = watch(page);
    await page.goto(`${server.origin}/dashboard/matrix`);
  });

  after(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await server?.close();
  });

  it('opens the matrix: a cell per project and tool, coloured by status, with words and a legend, live', async () => {
    expect(await page.title()).to.equal('Matrix · Registry dashboard');
    await cell(page, 'demo', 'acme/lint').waitFor();
    const expected: [string, string, Status][] = [
      ['demo', 'acme/build', 'READY'],
      ['demo', 'acme/lint', 'FAILED'],
      ['demo', 'acme/deploy', 'DEFERRED'],
      ['demo', 'demo/mixed', 'DEFERRED'],
      ['demo', 'acme/cache', 'OPTIONAL_UNBOUND'],
      ['web', 'acme/lint', 'READY'],
      ['ops', 'acme/lint', 'READY'],
      ['ops', 'acme/cache', 'READY'],
    ];
    for (const [project, tool, status] of expected) {
      const c = cell(page, project, tool);
      expect(await c.getAttribute('data-status'), `${tool} in ${project}`).to.equal(status);
      expect(await c.getAttribute('class')).to.include(`s-${status}`);
      expect(await background(c)).to.equal(COLOURS[status]);
    }
    // Not colour alone: a mark in the cell and words in its label.
    expect(await cell(page, 'demo', 'acme/lint').getAttribute('aria-label')).to.equal(
      'acme/lint in demo: failed (1 slot: AMBIGUOUS)',
    );
    expect(await cell(page, 'demo', 'acme/lint').innerText()).to.equal('✕');
    expect(await cell(page, 'demo', 'acme/deploy').getAttribute('aria-label')).to.equal(
      'acme/deploy in demo: deferred',
    );
    expect(await page.locator('.legend li').allInnerTexts()).to.have.length(4);
    expect(await page.locator('table.matrix thead th.tool').allInnerTexts()).to.deep.equal([
      'acme/build',
      'acme/cache',
      'acme/deploy',
      'acme/lint',
      'demo/mixed',
    ]);
    expect(await page.locator('table.matrix tbody th.project').allInnerTexts()).to.deep.equal(['demo', 'ops', 'web']);
    // Every header is a link to its page, with the full name on hover.
    const header = page.locator('table.matrix th.tool[data-tool="acme/lint"] a');
    expect(await header.getAttribute('href')).to.equal('/dashboard/tools/acme%2Flint');
    expect(await header.getAttribute('title')).to.equal('acme/lint');
    expect(await page.locator('table.matrix th.project a', { hasText: 'demo' }).getAttribute('href')).to.equal(
      '/dashboard/projects/demo',
    );
    await page.locator('.badge[data-state="live"]').waitFor();
    await expectAccessible(page, 'the matrix');
  });

  it("opens the ambiguous cell's explanation in words: every candidate, why each was rejected, and the fix", async () => {
    await cell(page, 'demo', 'acme/lint').click();
    const panel = page.locator('aside.explain');
    await panel.locator('.fix-text').waitFor();
    expect(await panel.locator('h2').innerText()).to.equal('acme/lint in demo');
    expect(await panel.locator('.verdict').innerText()).to.equal('acme/lint cannot run in demo: 1 slot is not bound.');
    expect(await panel.locator('.slot-card h3').innerText()).to.equal('Why is source not bound in demo?');
    expect(await panel.locator('.slot-card .reason').innerText()).to.equal('AMBIGUOUS');
    expect(await panel.locator('.fix-text').innerText()).to.equal(
      "set alias 'source' on one of acme/app-repo, acme/web-repo with updateLink, or unlink all but one of them",
    );
    const rows = await panel.locator('ul.candidates > li').allInnerTexts();
    expect(rows).to.have.length(2);
    expect(rows[0]).to.include('acme/app-repo').and.include('alias repo').and.include('tied: nothing picks one');
    expect(rows[1]).to.include('acme/web-repo').and.include('tied: nothing picks one').and.include('git-checkout');
    // The fix is a button per tied resource; without a token it says why it is not available.
    const fix = panel.locator('.fix-buttons button', { hasText: 'Bind to acme/app-repo' });
    await panel.locator('.fix-buttons button[title*="needs you to enter a token"]').first().waitFor();
    expect(await fix.getAttribute('aria-disabled')).to.equal('true');
    expect(await fix.getAttribute('title')).to.include('it needs the EDITOR role on * (names without a namespace');
    // The panel fits at 1280 px: nothing in it is wider than it.
    const overflow = await panel.evaluate((el: any) => el.scrollWidth - el.clientWidth);
    expect(overflow, 'no horizontal overflow').to.be.at.most(0);
    await expectAccessible(page, 'the explanation panel');

    // Escape closes it and gives the focus back to the cell.
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(
      await page.evaluate('document.activeElement.dataset.tool + " in " + document.activeElement.dataset.project'),
    ).to.equal('acme/lint in demo');
  });

  it('is driven by the keyboard: one cell in the tab order, arrows move, Enter and Space open, Escape closes', async () => {
    expect(await page.locator('td.cell[tabindex="0"]').count()).to.equal(1);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowLeft');
    const focused = () => page.evaluate('document.activeElement.getAttribute("aria-label")');
    expect(await focused()).to.equal('acme/deploy in ops: deferred');
    await page.keyboard.press('Enter');
    await page.locator('aside.explain h2', { hasText: 'acme/deploy in ops' }).waitFor();
    expect(await page.locator('aside.explain .slot-card').count()).to.equal(2);
    await page.keyboard.press('Escape');
    await page.locator('aside.explain').waitFor({ state: 'detached' });
    await page.keyboard.press('Home');
    await page.keyboard.press(' ');
    await page.locator('aside.explain h2', { hasText: 'acme/build in ops' }).waitFor();
    await page.keyboard.press('Escape');
    await page.locator('aside.explain').waitFor({ state: 'detached' });
  });

  it('shows a tool registered through the API as a new column, without a reload', async () => {
    await page.evaluate('window.__loadedOnce = true');
    const before = seen.requests.filter((r) => r.resourceType() === 'document').length;
    await admin(server)(REGISTER_TOOL, {
      i: { name: 'acme/format', resourceSlots: [{ name: 'repo', resourceType: 'git-checkout' }] },
    });
    await page.locator('table.matrix th.tool[data-tool="acme/format"]').waitFor();
    await waitForStatus(page, 'demo', 'acme/format', 'READY');
    await waitForStatus(page, 'web', 'acme/format', 'READY');
    expect(await page.locator('table.matrix thead th.tool').allInnerTexts()).to.deep.equal([
      'acme/build',
      'acme/cache',
      'acme/deploy',
      'acme/format',
      'acme/lint',
      'demo/mixed',
    ]);
    expect(await page.evaluate('window.__loadedOnce'), 'the same page, not a reload').to.equal(true);
    expect(seen.requests.filter((r) => r.resourceType() === 'document').length).to.equal(before);
  });

  it('recolours the affected cells live when a linked resource is force-deleted through the API', async () => {
    expect(await cell(page, 'demo', 'acme/lint').getAttribute('data-status')).to.equal('FAILED');
    expect(await cell(page, 'web', 'acme/lint').getAttribute('data-status')).to.equal('READY');
    await admin(server)(`mutation { deleteResource(ref: "acme/web-repo", force: true) { registryVersion } }`);
    // demo keeps one repository, so the ambiguity is gone; web keeps none.
    await waitForStatus(page, 'demo', 'acme/lint', 'READY');
    await waitForStatus(page, 'web', 'acme/lint', 'FAILED');
    await waitForStatus(page, 'web', 'acme/build', 'FAILED');
    expect(await background(cell(page, 'web', 'acme/lint'))).to.equal(COLOURS.FAILED);
    expect(await cell(page, 'web', 'acme/lint').getAttribute('aria-label')).to.equal(
      'acme/lint in web: failed (1 slot: NO_MATCH)',
    );
    // The changed cells flash for a moment; cells that did not change keep their status, and do not.
    expect(await cell(page, 'web', 'acme/lint').getAttribute('class')).to.include('flash');
    expect(await cell(page, 'ops', 'acme/lint').getAttribute('data-status')).to.equal('READY');
    expect(await cell(page, 'ops', 'acme/lint').getAttribute('class')).not.to.include('flash');
  });

  it('draws the type graph with parents above sub-types; a type has a page with what fills it and which tools ask for it', async () => {
    await page.locator('nav a', { hasText: 'Types' }).click();
    await waitForPath(page, '/dashboard/types');
    const node = (name: string) => page.locator(`a.type-node[data-type="${name}"]`);
    await node('fs-directory').waitFor();
    expect(await node('git-checkout').getAttribute('data-depth')).to.equal('0');
    expect(await node('fs-directory').getAttribute('data-depth')).to.equal('1');
    const y = async (name: string) => (await node(name).boundingBox())!.y;
    expect(await y('git-checkout')).to.be.below(await y('fs-directory'));
    expect(await page.locator('svg.type-graph .edges path').count()).to.equal(1);

    // It pans and zooms: the buttons, the keys on the frame, and a drag.
    const drawing = page.locator('svg.type-graph > g');
    const transform = () => drawing.getAttribute('transform');
    const zoom = () => page.locator('.zoom-level').innerText();
    const at100 = await zoom();
    await page.locator('button[aria-label="Zoom in"]').click();
    expect(await zoom()).not.to.equal(at100);
    await page.locator('.graph-frame').focus();
    await page.keyboard.press('0');
    const fitted = await transform();
    await page.keyboard.press('ArrowRight');
    expect(await transform(), 'the arrow keys pan').not.to.equal(fitted);
    const frame = (await page.locator('.graph-frame').boundingBox())!;
    const before = await transform();
    await page.mouse.move(frame.x + 20, frame.y + frame.height - 20);
    await page.mouse.down();
    await page.mouse.move(frame.x + 120, frame.y + frame.height - 60, { steps: 5 });
    await page.mouse.up();
    expect(await transform(), 'a drag pans').not.to.equal(before);
    expect(new URL(page.url()).pathname, 'a drag is not a click').to.equal('/dashboard/types');
    await page.keyboard.press('0');

    await node('git-checkout').click();
    await waitForPath(page, '/dashboard/types/git-checkout');
    const resources = page.locator('.compatible-resources');
    await resources.waitFor();
    expect(await resources.locator('li').allInnerTexts()).to.deep.equal([
      'acme/app-repo',
      'local/shared-config (fs-directory)',
    ]);
    await page.locator('.asking-tools').waitFor();
    const tools = await page.locator('.asking-tools li').allInnerTexts();
    expect(tools.map((t) => t.split(':')[0])).to.deep.equal([
      'acme/build',
      'acme/cache',
      'acme/deploy',
      'acme/format',
      'acme/lint',
      'demo/mixed',
    ]);
    expect(tools[0]).to.equal('acme/build: repo (git-checkout, contextual)');
    expect(await page.locator('.facts').innerText()).to.match(/Sub-types\s+fs-directory/);
    expect(await node('fs-directory').getAttribute('class')).to.include('descendant');

    // The keyboard follows a box's link too.
    await node('fs-directory').focus();
    await page.keyboard.press('Enter');
    await waitForPath(page, '/dashboard/types/fs-directory');
    await page.locator('h1', { hasText: 'fs-directory' }).waitFor();
  });

  it('shows the change log newest first, filtered by kind, with the binding changes of an entry', async () => {
    await page.locator('nav a', { hasText: 'History' }).click();
    const rows = page.locator('table.changes tbody.change > tr:first-child');
    await rows.first().waitFor();
    const versions = (
      await page.locator('table.changes tbody.change > tr:first-child td:first-child').allInnerTexts()
    ).map(Number);
    expect(versions).to.deep.equal([...versions].sort((a, b) => b - a));
    expect(await rows.first().innerText()).to.include('deleted resource acme/web-repo');

    // The forced delete's unlink from demo ended the ambiguity: its binding changes, expanded.
    const unlink = page.locator('table.changes tbody.change', { hasText: 'unlinked acme/web-repo from project demo' });
    await unlink.locator('button', { hasText: 'binding change' }).click();
    const impact = unlink.locator('.impact-table tbody tr', { hasText: 'acme/lint' });
    await impact.waitFor();
    expect(await impact.innerText()).to.match(
      /acme\/lint\s+demo\s+source\s+failed\s+ambiguous\s+bound\s+acme\/app-repo/,
    );

    await page.locator('select').selectOption('TOOL');
    await waitForPath(page, '/dashboard/history?kind=TOOL');
    await page.locator('table.changes tbody.change', { hasText: 'acme/format' }).first().waitFor();
    // demo/mixed, acme/migrate's registration and removal (extendDemo), extendDemo's four, and acme/format.
    await waitForCount(page, 'table.changes tbody.change', 8);
    expect(new Set(await page.locator('table.changes .chip').allInnerTexts())).to.deep.equal(new Set(['tool']));
  });

  it('previews a delete with the admin token, and deletes only once the shown impact is confirmed', async () => {
    const run = admin(server);
    await run(
      `mutation { registerResource(input: { name: "acme/docs-repo", type: "git-checkout" }) { registryVersion } }`,
    );
    await run(`mutation { linkResource(input: { project: "web", resource: "acme/docs-repo" }) { registryVersion } }`);
    const exists = async () => (await server.data(`{ resource(ref: "acme/docs-repo") { name } }`)).resource !== null;

    await page.goto(`${server.origin}/dashboard/resources/acme%2Fdocs-repo`);
    await page.locator('table.links', { hasText: 'web' }).waitFor();
    // Without a token the changes are there but refused, each saying why.
    const refused = page.locator('button[aria-disabled="true"]', { hasText: 'Delete acme/docs-repo' });
    await page.locator('.danger-zone .delete-refused', { hasText: 'needs you to enter a token' }).waitFor();
    expect(await refused.getAttribute('title')).to.include('it needs the EDITOR role on the namespace acme');
    await refused.click({ force: true });
    expect(await page.locator('[role="dialog"][aria-modal="true"]').count(), 'a refused button opens nothing').to.equal(
      0,
    );
    expect(await page.locator('.refusal-note').innerText()).to.include('needs you to enter a token');

    await page.locator('button.token-button').click();
    await page.locator('#token-box input[type="password"]').fill(ADMIN_TOKEN);
    await page.keyboard.press('Enter');
    // The button names the token's principal (ADMIN_TOKEN is token:admin).
    await page.locator('button.token-button', { hasText: 'Token: token:admin' }).waitFor();
    expect(await page.evaluate(`sessionStorage.getItem('registry-dashboard.token')`)).to.equal(ADMIN_TOKEN);
    await page.locator('#token-box').press('Escape');
    await page.locator('button:not([aria-disabled])', { hasText: 'Delete acme/docs-repo' }).waitFor();
    expect(await page.locator('.refusal-note').count()).to.equal(0);

    // Unlink, previewed, then cancelled: nothing changes.
    await page.locator('button', { hasText: 'Unlink…' }).click();
    const dialog = page.locator('[role="dialog"][aria-modal="true"]');
    await dialog.locator('.impact-count').waitFor();
    expect(await dialog.innerText()).to.include('Nothing has changed yet');
    await dialog.locator('button', { hasText: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(
      (await server.data(`{ project(ref: "web") { resources { resource { name } } } }`)).project.resources,
    ).to.deep.equal([{ resource: { name: 'acme/docs-repo' } }]);

    // Delete: the preview shows the links it would remove and what that does to bindings.
    await page.locator('button', { hasText: 'Delete acme/docs-repo' }).click();
    await dialog.locator('.impact-table').waitFor();
    expect(await dialog.locator('.note').innerText())
      .to.include('1 project links it (web)')
      .and.include('removes that link');
    const change = await dialog.locator('.impact-table tbody tr', { hasText: 'acme/lint' }).innerText();
    expect(change).to.match(/acme\/lint\s+web\s+source\s+bound\s+acme\/docs-repo\s+failed\s+no match/);
    expect(await dialog.locator('.impact-count').innerText()).to.match(/^Would cause: \d+ binding changes/);
    expect(await exists(), 'still there before confirming').to.equal(true);
    await expectAccessible(page, 'a delete previewed');

    await dialog.locator('button', { hasText: 'Unlink from 1 project and delete' }).click();
    await dialog.locator('text=Deleted acme/docs-repo').waitFor();
    // What it wrote in the change log, after it.
    await dialog.locator('.logged-entries li', { hasText: 'deleted resource acme/docs-repo' }).waitFor();
    expect(await exists(), 'gone after confirming').to.equal(false);
    await dialog.locator('button', { hasText: 'Close' }).click();
    await page.locator('text=No resource named acme/docs-repo is registered now').waitFor();
    await page.locator('.change-log tbody.change', { hasText: 'deleted resource acme/docs-repo' }).waitFor();
  });

  it('refuses, with the reason, to delete a resource a tool binds statically', async () => {
    await page.goto(`${server.origin}/dashboard/resources/local%2Fshared-config`);
    await page.locator('button', { hasText: 'Delete local/shared-config' }).click();
    const dialog = page.locator('[role="dialog"][aria-modal="true"]');
    await dialog.locator('[role="alert"]').waitFor();
    expect(await dialog.innerText())
      .to.include('tools bind it statically')
      .and.include('demo/mixed');
    expect(await dialog.locator('button.danger').count(), 'nothing to confirm').to.equal(0);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('requested nothing from any other host, and logged no error', () => {
    const origin = new URL(server.origin);
    const urls = seen.requests.map((r) => r.url());
    const offHost = urls.filter((url) => {
      const { protocol, host } = new URL(url);
      return protocol !== 'data:' && protocol !== 'blob:' && host !== origin.host;
    });
    expect(offHost).to.deep.equal([]);
    expect(urls.some((u) => u.endsWith('/graphql'))).to.equal(true);
    // The live connection went to the same host, which the policy's connect-src 'self' allowed (a refusal would be a console error).
    expect(seen.sockets.length).to.be.at.least(1);
    for (const url of seen.sockets) expect(url).to.equal(`ws://${origin.host}/graphql`);
    expect(seen.problems).to.deep.equal([]);
  });
});

describe('dashboard in Chromium: a dropped connection', function () {
  this.timeout(60_000);
  let server: TestServer;
  let proxy: TcpProxy;
  let browser: BrowserContext;
  let profile: string;

  before(async function () {
    this.timeout(180_000);
    await ensureDashboardBuilt();
    ({ browser, profile } = await launch(this));
    server = await startServer(sqlite, { demoData: true, adminToken: ADMIN_TOKEN });
    await extendDemo(server);
    // The page talks to the server through a proxy the test can cut: its WebSocket drops, as on a flaky network.
    proxy = await startTcpProxy('127.0.0.1', Number(new URL(server.origin).port));
  });

  after(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await proxy?.close();
    await server?.close();
  });

  it('reconnects and resumes after the last version it saw, so a change made meanwhile still arrives', async () => {
    const page = await browser.newPage();
    const seen = watch(page);
    const subscribed: (number | null)[] = [];
    page.on('websocket', (ws) => {
      ws.on('framesent', (frame) => {
        const message = JSON.parse(String(frame.payload)) as {
          type: string;
          payload?: { variables?: { afterVersion?: number | null } };
        };
        if (message.type === 'subscribe') subscribed.push(message.payload?.variables?.afterVersion ?? null);
      });
    });
    await page.goto(`http://127.0.0.1:${proxy.port}/dashboard/matrix`);
    await page.locator('.badge[data-state="live"]').waitFor();
    expect(await cell(page, 'demo', 'acme/lint').getAttribute('data-status')).to.equal('FAILED');
    // A dry run answers the current version: the page subscribed after it.
    const before: number = (
      await admin(server)(`mutation { createProject(input: { name: "probe" }, dryRun: true) { registryVersion } }`)
    ).createProject.registryVersion;
    expect(subscribed).to.deep.equal([before]);

    // The connection drops; the change is made while the page cannot hear of it.
    await proxy.cut();
    await page.locator('.badge[data-state="reconnecting"]').waitFor();
    await admin(server)(`mutation { deleteResource(ref: "acme/web-repo", force: true) { registryVersion } }`);
    await proxy.restore();
    await page.locator('.badge[data-state="live"]').waitFor();
    await waitForStatus(page, 'demo', 'acme/lint', 'READY');
    await waitForStatus(page, 'web', 'acme/lint', 'FAILED');
    expect(subscribed.length).to.be.at.least(2);
    // It resumed from a version it had seen, at or after where it started: nothing missed, nothing twice.
    expect(subscribed[1]).to.be.a('number').and.at.least(before);
    expect(seen.problems).to.deep.equal([]);
  });
});

describe('dashboard in Chromium: a full page of 20 projects × 50 tools', function () {
  this.timeout(90_000);
  let server: TestServer;
  let browser: BrowserContext;
  let profile: string;
  let page: Page;
  let seen: ReturnType<typeof watch>;

  before(async function () {
    this.timeout(180_000);
    await ensureDashboardBuilt();
    ({ browser, profile } = await launch(this));
    server = await startServer(sqlite, { demoData: false });
    const run = (query: string, variables: Record<string, unknown> = {}) => server.data(query, variables);
    await run(`mutation { registerResourceType(input: { name: "repo" }) { registryVersion } }`);
    await run(`mutation { registerResourceType(input: { name: "db" }) { registryVersion } }`);
    await run(`mutation { registerResource(input: { name: "shared/repo", type: "repo" }) { registryVersion } }`);
    for (let p = 0; p < 25; p++) {
      const name = `project-${String(p).padStart(2, '0')}`;
      await run(`mutation($n: String!) { createProject(input: { name: $n }) { registryVersion } }`, { n: name });
      if (p % 3 !== 0)
        await run(
          `mutation($n: String!) { linkResource(input: { project: $n, resource: "shared/repo" }) { registryVersion } }`,
          {
            n: name,
          },
        );
    }
    for (let t = 0; t < 60; t++) {
      const slots: Record<string, unknown>[] = [
        { name: 'code', resourceType: t % 4 === 3 ? 'db' : 'repo', required: t % 5 !== 4 },
      ];
      if (t % 7 === 0) slots.push({ name: 'out', resourceType: 'repo', binding: 'PARAMETER' });
      await run(REGISTER_TOOL, { i: { name: `tool-${String(t).padStart(2, '0')}`, resourceSlots: slots } });
    }
    page = await browser.newPage();
    seen = watch(page);
    // Long tasks (main thread busy over 50 ms) are what a person sees as lag.
    await page.addInitScript(
      `window.__longTasks = []; new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(Math.round(e.duration)); }).observe({ type: 'longtask', buffered: true });`,
    );
  });

  after(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await server?.close();
  });

  it('draws 1,000 plain cells at once, and a live change redraws without a long pause', async () => {
    const started = Date.now();
    await page.goto(`${server.origin}/dashboard/matrix`);
    await waitForCount(page, 'td.cell', 1000);
    const loaded = Date.now() - started;
    expect(await page.locator('table.matrix tbody tr').count()).to.equal(20);
    expect(await page.locator('table.matrix thead th.tool').count()).to.equal(50);
    expect(await page.locator('td.cell *').count(), 'no elements inside the cells').to.equal(0);
    await page.locator('.badge[data-state="live"]').waitFor();
    const atLoad = await page.evaluate<number[]>('window.__longTasks');

    await page.evaluate('window.__longTasks.length = 0');
    const changed = Date.now();
    await server.data(
      `mutation { linkResource(input: { project: "project-00", resource: "shared/repo" }) { registryVersion } }`,
    );
    await waitForStatus(page, 'project-00', 'tool-00', 'DEFERRED');
    const live = Date.now() - changed;
    const atChange = await page.evaluate<number[]>('window.__longTasks');
    console.log(
      `    20 × 50: shown ${loaded} ms after navigation (long tasks ${JSON.stringify(atLoad)} ms); a live change shown after ${live} ms (long tasks ${JSON.stringify(atChange)} ms)`,
    );
    // Generous bounds for a shared machine: what they catch is a per-cell component or a redraw of everything.
    expect(Math.max(0, ...atChange), 'the longest pause while applying a change').to.be.below(250);
    expect(live).to.be.below(3000);
    // The changed cells flash for a moment.
    await waitForCount(page, 'td.cell.flash', 0);
  });

  it('pages both axes with Next and Previous, and filters them, with the filters in the URL', async () => {
    const tools = page.locator('.pager', { hasText: 'tools' });
    const projects = page.locator('.pager', { hasText: 'projects' });
    expect(await tools.locator('.pager-range').innerText()).to.equal('tools 1–50 of 60');
    await tools.locator('button', { hasText: 'Next' }).click();
    await page.locator('th.tool[data-tool="tool-59"]').waitFor();
    expect(await tools.locator('.pager-range').innerText()).to.equal('tools 51–60 of 60');
    expect(await tools.locator('button', { hasText: 'Next' }).isDisabled()).to.equal(true);
    await projects.locator('button', { hasText: 'Next' }).click();
    await page.locator('th.project', { hasText: 'project-24' }).waitFor();
    expect(await projects.locator('.pager-range').innerText()).to.equal('projects 21–25 of 25');
    expect(await page.locator('td.cell').count()).to.equal(5 * 10);
    await tools.locator('button', { hasText: 'Previous' }).click();
    await page.locator('th.tool[data-tool="tool-00"]').waitFor();
    expect(await page.locator('td.cell').count()).to.equal(5 * 50);

    await page.getByLabel('Slot type').fill('db');
    await waitForPath(page, '/dashboard/matrix?slotType=db');
    await waitForCount(page, 'th.tool', 15);
    expect(await projects.locator('.pager-range').innerText(), 'a new filter starts at the first page').to.equal(
      'projects 1–20 of 25',
    );
    await page.getByLabel('Name contains').first().fill('project-1');
    await waitForCount(page, 'th.project', 10);
    await waitForPath(page, '/dashboard/matrix?project=project-1&slotType=db');

    await page.getByLabel('Slot type').fill('dbx');
    await page.locator('[role="alert"]', { hasText: "no resource type 'dbx'" }).waitFor();
    await page.locator('button', { hasText: 'Clear filters' }).click();
    await waitForCount(page, 'td.cell', 1000);
    expect(await projects.locator('.pager-range').innerText(), 'back to the first page').to.equal(
      'projects 1–20 of 25',
    );
    expect(seen.problems).to.deep.equal([]);
  });
});

describe('dashboard in Chromium: a server that needs a token to read', function () {
  this.timeout(60_000);
  const READ_TOKEN = 'dashboard-test-read-token-0123456789';
  let server: TestServer;
  let browser: BrowserContext;
  let profile: string;

  before(async function () {
    this.timeout(180_000);
    await ensureDashboardBuilt();
    ({ browser, profile } = await launch(this));
    server = await startServer(sqlite, { demoData: true, adminToken: ADMIN_TOKEN, readToken: READ_TOKEN });
  });

  after(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await server?.close();
  });

  it('says so, takes the read token in the token box, and stays read-only with it', async () => {
    const page = await browser.newPage();
    const seen = watch(page);
    await page.goto(`${server.origin}/dashboard/matrix`);
    await page.locator('.banner', { hasText: 'needs a token to read' }).waitFor();
    const input = page.locator('#token-box input[type="password"]');
    await input.waitFor();
    expect(await page.evaluate('document.activeElement.type')).to.equal('password');
    await input.fill(READ_TOKEN);
    await page.keyboard.press('Enter');
    await waitForStatus(page, 'demo', 'demo/mixed', 'DEFERRED');
    await page.locator('.badge[data-state="live"]').waitFor();
    expect(await page.locator('.banner').count()).to.equal(0);
    await page.locator('.token-status', { hasText: 'This token is token:read.' }).waitFor();

    await page.goto(`${server.origin}/dashboard/resources/acme%2Fapp-repo`);
    await page.locator('table.links', { hasText: 'demo' }).waitFor();
    // The read token may not change anything: every change is refused, and the page says why.
    await page
      .locator('.refusal-note', {
        hasText: 'token:read may not change this resource: it needs the EDITOR role on the namespace acme.',
      })
      .waitFor();
    for (const name of ['Unlink', 'Delete', 'Rename'])
      expect(await page.locator('button', { hasText: name }).first().getAttribute('aria-disabled'), name).to.equal(
        'true',
      );
    // The refused reads are the only errors the browser logged.
    expect(seen.problems.filter((p) => !p.includes('401'))).to.deep.equal([]);
  });
});
