// The dashboard's pages in Chromium, on the demo extended through the API: the overview, a page for every
// thing at a stable URL (with Back), search from every page, and each change with its preview, its commit
// and its change-log entry, and refused (disabled, with the reason) without a token. Every page is scanned
// with axe-core: no serious or critical violation.
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { ensureDashboardBuilt } from '../../scripts/build-dashboard';
import { sqlite } from '../support/backends';
import {
  ADMIN_TOKEN,
  background,
  cell,
  expectAccessible,
  extendDemo,
  focused,
  launch,
  operationsSent,
  waitForPath,
  watch,
} from '../support/dashboard-browser';
import { startServer, type TestServer } from '../support/server';

const LINKS = `query($p: String!) { project(ref: $p) { resources { alias resource { name } } } }`;

describe('dashboard pages in Chromium', function () {
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
    server = await startServer(sqlite, { demoData: true, adminToken: ADMIN_TOKEN });
    await extendDemo(server);
    page = browser.pages()[0] ?? (await browser.newPage());
    seen = watch(page);
  });

  after(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await server?.close();
  });

  it('opens on the overview, which counts every pair and says what needs attention first', async () => {
    await page.goto(`${server.origin}/dashboard`);
    const headline = page.locator('.headline');
    await headline.waitFor();
    // 5 tools in 3 projects: only acme/lint fails, in demo (ambiguous); acme/cache finds nothing in demo and web.
    expect(await headline.innerText()).to.equal(
      '5 tools in 3 projects: of 15 tool × project pairs, 1 (6.7 %) cannot run as the registry stands.',
    );
    const stat = (label: string) => page.locator('.stat', { hasText: label }).locator('.stat-value').innerText();
    expect([await stat('Failed'), await stat('Optional'), await stat('Deferred'), await stat('Ready')]).to.deep.equal([
      '1',
      '2',
      '6',
      '6',
    ]);
    const tools = await page.locator('section[aria-labelledby="attention-tools"] li').allInnerTexts();
    expect(tools.map((t) => t.replace(/\s+/g, ' '))).to.deep.equal([
      'acme/lint 1 of 3 fail',
      'acme/cache 2 optional unbound',
    ]);
    const projects = await page.locator('section[aria-labelledby="attention-projects"] li').allInnerTexts();
    expect(projects.map((t) => t.replace(/\s+/g, ' '))).to.deep.equal(['demo 1 of 5 fail', 'web 1 optional unbound']);
    // Times say their zone (the browser's: Paris) and how long ago.
    expect(await page.locator('table.changes time').first().innerText()).to.match(
      /just now\s+\d+ \w+ 20\d\d, [\d:]+ CET/,
    );
    await expectAccessible(page, 'the overview');
  });

  it('has a page for every thing at a stable URL: links lead there, Back returns, a reload shows the same', async () => {
    await page.locator('section[aria-labelledby="attention-tools"] a', { hasText: 'acme/lint' }).click();
    await waitForPath(page, '/dashboard/tools/acme%2Flint');
    await page.locator('h1', { hasText: 'acme/lint' }).waitFor();
    expect(await page.title()).to.equal('acme/lint · Registry dashboard');
    expect(await page.locator('table.slots tbody tr').allInnerTexts()).to.deep.equal([
      'source\tgit-checkout\tfrom the project\tread\tyes',
    ]);
    // Where it runs, failures first, each with its explanation.
    const rows = page.locator('table.cells tbody tr');
    await rows.first().waitFor();
    expect(await page.locator('#cells-tool').innerText()).to.equal('Fails in 1 of 3 projects');
    // (Each Why? button also names its pair to those who hear the page, on a line of its own in innerText.)
    expect((await rows.allInnerTexts()).map((r) => r.split('\n')[0])).to.deep.equal([
      'demo\t✕ failed\t1 slot not bound: ambiguous\tWhy?',
      'ops\t✓ ready\t\tWhy?',
      'web\t✓ ready\t\tWhy?',
    ]);
    await rows.first().locator('button', { hasText: 'Why?' }).click();
    await page.locator('aside.explain h2', { hasText: 'acme/lint in demo' }).waitFor();
    await expectAccessible(page, "a tool's page with an explanation open");
    await page.keyboard.press('Escape');
    await page.locator('aside.explain').waitFor({ state: 'detached' });

    await page.locator('table.cells a', { hasText: 'ops' }).click();
    await waitForPath(page, '/dashboard/projects/ops');
    await page.locator('table.links', { hasText: 'local/shared-config' }).waitFor();
    expect(await page.locator('#cells-project').innerText()).to.equal('All 5 tools can run here');
    await expectAccessible(page, "a project's page");

    await page.goBack();
    await waitForPath(page, '/dashboard/tools/acme%2Flint');
    await page.locator('h1', { hasText: 'acme/lint' }).waitFor();
    await page.goBack();
    await waitForPath(page, '/dashboard');
    await page.locator('.headline').waitFor();
    await page.goForward();
    await waitForPath(page, '/dashboard/tools/acme%2Flint');

    // Every page, loaded from its own URL.
    const pages: [string, string][] = [
      ['/dashboard/tools', 'h1:has-text("Tools")'],
      ['/dashboard/projects?order=name', 'table.projects'],
      ['/dashboard/resources', 'table.resources'],
      ['/dashboard/resources/acme%2Fapp-repo', 'table.links'],
      ['/dashboard/types', 'a.type-node[data-type="git-checkout"]'],
      ['/dashboard/types/fs-directory', '.compatible-resources'],
      ['/dashboard/history', 'table.changes'],
      ['/dashboard/projects/demo', 'table.cells'],
    ];
    for (const [path, selector] of pages) {
      await page.goto(`${server.origin}${path}`);
      await page.locator(selector).first().waitFor();
      await expectAccessible(page, path);
    }
    await page.goto(`${server.origin}/dashboard/projects`);
    await page.locator('table.projects tbody th a').first().waitFor();
    const projects = await page.locator('table.projects tbody th a').allInnerTexts();
    expect(projects, 'failing first').to.deep.equal(['demo', 'web', 'ops']);
    expect(await page.locator('table.projects tbody tr').first().innerText()).to.match(
      /^demo\nThe seed example project\.\s+1\s+1\s+2\s+1\b/,
    );
  });

  it('searches across kinds from every page: / focuses the box, arrows choose, Enter opens', async () => {
    await page.goto(`${server.origin}/dashboard/history`);
    await page.locator('table.changes').waitFor();
    await page.keyboard.press('/');
    expect(await page.evaluate('document.activeElement.getAttribute("role")')).to.equal('combobox');
    await page.keyboard.type('repo');
    const results = page.locator('.search-results');
    await results.locator('[role="option"]', { hasText: 'acme/app-repo' }).waitFor();
    expect(await results.locator('.search-kind').allTextContents()).to.deep.equal(['Resources']);
    const sent = operationsSent(seen.requests).filter((o) => o.name === 'Search');
    expect(sent.at(-1)?.variables).to.deep.equal({ text: 'repo', first: 5 });
    await page.keyboard.press('Control+A');
    await page.keyboard.type('acme');
    await results.locator('.search-kind', { hasText: 'Tools' }).waitFor();
    expect(await results.locator('.search-kind').allTextContents()).to.deep.equal(['Tools', 'Resources']);
    await expectAccessible(page, 'search, open');
    // The first option is active; Down moves to the second tool.
    await page.keyboard.press('ArrowDown');
    const active = await page.evaluate<string>('document.activeElement.getAttribute("aria-activedescendant")');
    expect(await page.locator(`[id="${active}"]`).innerText()).to.equal('acme/cache');
    await page.keyboard.press('Enter');
    await waitForPath(page, '/dashboard/tools/acme%2Fcache');
    await page.locator('h1', { hasText: 'acme/cache' }).waitFor();
    expect(await results.count(), 'closed').to.equal(0);
  });

  it('offers every change without a token, refused with the reason, each still reachable from the keyboard', async () => {
    await page.goto(`${server.origin}/dashboard/projects/web`);
    await page.locator('table.links').waitFor();
    await page.locator('.refusal-note', { hasText: 'needs you to enter a token' }).waitFor();
    for (const name of ['Rename…', 'Add a description…', 'Link a resource…', 'Change alias…', 'Unlink…'])
      expect(await page.locator('main button[aria-disabled="true"]', { hasText: name }).count(), name).to.equal(1);
    // Tab reaches them (a disabled button would be skipped), and Enter opens nothing.
    await page.locator('button', { hasText: 'Rename…' }).focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).to.match(
      /^Add a description…: not available\. Changing the registry needs you to enter a token/,
    );
    await page.keyboard.press('Enter');
    expect(await page.locator('[role="dialog"][aria-modal="true"]').count()).to.equal(0);
  });

  describe('with the admin token', () => {
    before(async () => {
      await page.goto(`${server.origin}/dashboard`);
      await page.evaluate(`sessionStorage.setItem('registry-dashboard.token', '${ADMIN_TOKEN}')`);
    });

    const dialog = () => page.locator('[role="dialog"][aria-modal="true"]');

    /** Previews the change the dialog shows, checks nothing changed, confirms it, and returns the change-log entry. */
    async function previewAndConfirm(confirm: string, unchanged: () => Promise<void>): Promise<string> {
      await dialog().locator('.impact-count').waitFor();
      expect(await dialog().innerText()).to.include('Nothing has changed yet');
      await unchanged();
      await dialog().locator('button', { hasText: confirm }).click();
      const entry = dialog().locator('.logged-entries li');
      await entry.first().waitFor();
      return entry.first().innerText();
    }

    it('links a resource to a project: the form, the preview of its impact, then the link and its log entry', async () => {
      await page.goto(`${server.origin}/dashboard/projects/ops`);
      await page.locator('button:not([aria-disabled])', { hasText: 'Link a resource…' }).click();
      await dialog().getByLabel('Resource (its name or id)').fill('acme/app-repo');
      await dialog()
        .getByLabel(/^Alias/)
        .fill('repo');
      await dialog().locator('button', { hasText: 'Preview the change' }).click();
      const entry = await previewAndConfirm('Link to ops', async () => {
        // ops links only local/shared-config until it is confirmed; the preview says what the link would bind.
        expect((await server.data(LINKS, { p: 'ops' })).project.resources).to.have.length(1);
        // The repo slots take the new link by its alias; acme/lint's source slot finds two and no way to choose.
        expect(await dialog().locator('.impact-count').innerText()).to.equal('Would cause: 4 binding changes');
        const impact = await dialog().locator('.impact-table').innerText();
        expect(impact).to.match(/acme\/build\s+ops\s+repo\s+bound\s+local\/shared-config\s+bound\s+acme\/app-repo/);
        expect(impact).to.match(/acme\/lint\s+ops\s+source\s+bound\s+local\/shared-config\s+failed\s+ambiguous/);
      });
      expect(entry).to.match(
        /^Version \d+: linked acme\/app-repo to project ops under alias repo — token:admin, just now/,
      );
      await dialog().locator('button', { hasText: 'Close' }).click();
      await page.locator('table.links tbody tr', { hasText: 'acme/app-repo' }).waitFor();
      expect((await server.data(LINKS, { p: 'ops' })).project.resources).to.deep.equal([
        { alias: 'repo', resource: { name: 'acme/app-repo' } },
        { alias: null, resource: { name: 'local/shared-config' } },
      ]);
    });

    it('clears and sets an alias, each previewed first, from the keyboard alone', async () => {
      await page.goto(`${server.origin}/dashboard/projects/web`);
      const change = page.locator('button:not([aria-disabled])', { hasText: 'Change alias…' });
      await change.focus();
      await page.keyboard.press('Enter');
      expect(await page.evaluate('document.activeElement.value')).to.equal('site');
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');
      await page.keyboard.press('Enter');
      await dialog().locator('.impact-count').waitFor();
      // The focus waits on the safe choice; the confirm button is next.
      expect(await focused(page)).to.equal('Cancel');
      expect((await server.data(LINKS, { p: 'web' })).project.resources[0].alias).to.equal('site');
      await page.keyboard.press('Tab');
      expect(await focused(page)).to.equal('Clear the alias');
      await page.keyboard.press('Enter');
      await dialog().locator('.logged-entries li').first().waitFor();
      expect((await server.data(LINKS, { p: 'web' })).project.resources[0].alias).to.equal(null);
      await page.keyboard.press('Escape');
      await dialog().waitFor({ state: 'detached' });

      await page.locator('button:not([aria-disabled])', { hasText: 'Set alias…' }).click();
      await dialog().getByLabel('Alias').fill('site');
      await dialog().locator('button', { hasText: 'Preview the change' }).click();
      const entry = await previewAndConfirm('Set alias site', async () => {
        expect((await server.data(LINKS, { p: 'web' })).project.resources[0].alias).to.equal(null);
      });
      expect(entry).to.include('acme/web-repo').and.include('site');
      await dialog().locator('button', { hasText: 'Close' }).click();
      expect((await server.data(LINKS, { p: 'web' })).project.resources[0].alias).to.equal('site');
    });

    it("fixes an ambiguous slot with the explanation's fix in one click after the preview; the cell turns ready", async () => {
      await page.goto(`${server.origin}/dashboard/matrix`);
      await cell(page, 'demo', 'acme/lint').click();
      const panel = page.locator('aside.explain');
      await panel.locator('button:not([aria-disabled])', { hasText: 'Bind to acme/web-repo…' }).click();
      expect(await dialog().locator('h2').innerText()).to.equal('Bind source to acme/web-repo in demo?');
      const entry = await previewAndConfirm('Set alias source on acme/web-repo', async () => {
        expect(await dialog().locator('.impact-table').innerText()).to.match(
          /acme\/lint\s+demo\s+source\s+failed\s+ambiguous\s+bound\s+acme\/web-repo/,
        );
        expect(await cell(page, 'demo', 'acme/lint').getAttribute('data-status')).to.equal('FAILED');
      });
      expect(entry).to.include('acme/web-repo').and.include('source');
      await dialog().locator('button', { hasText: 'Close' }).click();
      await page.locator('td[data-project="demo"][data-tool="acme/lint"][data-status="READY"]').waitFor();
      await panel.locator('.verdict', { hasText: 'acme/lint can run in demo' }).waitFor();
    });

    it('renames a project (its page moves to the new URL) and describes a tool, each previewed first', async () => {
      await page.goto(`${server.origin}/dashboard/projects/ops`);
      await page.locator('button:not([aria-disabled])', { hasText: 'Rename…' }).click();
      // A name that is taken: the preview says why, and Back returns to the form.
      await dialog().getByLabel('New name').fill('web');
      await dialog().locator('button', { hasText: 'Preview the change' }).click();
      await dialog().locator('[role="alert"]', { hasText: 'web' }).waitFor();
      await dialog().locator('button', { hasText: 'Back' }).click();
      await dialog().getByLabel('New name').fill('operations');
      await dialog().locator('button', { hasText: 'Preview the change' }).click();
      const entry = await previewAndConfirm('Rename to operations', async () => {
        expect(await dialog().locator('.impact-count').innerText()).to.match(/^Would cause: 0 binding changes/);
        expect((await server.data(`{ project(ref: "ops") { name } }`)).project).to.deep.equal({ name: 'ops' });
      });
      expect(entry).to.include('renamed project ops to operations');
      await dialog().locator('button', { hasText: 'Close' }).click();
      await waitForPath(page, '/dashboard/projects/operations');
      await page.locator('h1', { hasText: 'operations' }).waitFor();

      await page.goto(`${server.origin}/dashboard/tools/acme%2Fbuild`);
      await page.locator('button:not([aria-disabled])', { hasText: 'Add a description…' }).click();
      await dialog().getByLabel('Description').fill('Builds the repository.');
      await dialog().locator('button', { hasText: 'Preview the change' }).click();
      await previewAndConfirm('Save the description', async () => {
        expect((await server.data(`{ tool(ref: "acme/build") { description } }`)).tool.description).to.equal(null);
      });
      await expectAccessible(page, 'a change done, with its log entry');
      await dialog().locator('button', { hasText: 'Close' }).click();
      await page.locator('p.description', { hasText: 'Builds the repository.' }).waitFor();
      const tool = (await server.data(`{ tool(ref: "acme/build") { description resourceSlots { name } } }`)).tool;
      expect(tool).to.deep.equal({ description: 'Builds the repository.', resourceSlots: [{ name: 'repo' }] });
    });

    it('requested nothing from any other host, and logged no error', () => {
      const origin = new URL(server.origin);
      const offHost = seen.requests
        .map((r) => new URL(r.url()))
        .filter((url) => url.protocol !== 'data:' && url.host !== origin.host);
      expect(offHost).to.deep.equal([]);
      // The only errors: the refused rename's answer (a CONFLICT is a 409 the browser logs).
      expect(seen.problems.filter((p) => !/status of 409/.test(p))).to.deep.equal([]);
    });
  });
});

describe('dashboard in Chromium: dark mode', function () {
  this.timeout(60_000);
  let server: TestServer;
  let browser: BrowserContext;
  let profile: string;

  before(async function () {
    this.timeout(180_000);
    await ensureDashboardBuilt();
    ({ browser, profile } = await launch(this, { colorScheme: 'dark' }));
    server = await startServer(sqlite, { demoData: true });
  });

  after(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await server?.close();
  });

  it('follows the system: dark paper and light ink, still without serious accessibility problems', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/dashboard/tools/demo%2Fmixed`);
    await page.locator('table.cells').waitFor();
    expect(await background(page.locator('html'))).to.equal('rgb(17, 21, 29)');
    expect(await page.locator('h1').evaluate((el: any) => (globalThis as any).getComputedStyle(el).color)).to.equal(
      'rgb(228, 232, 240)',
    );
    await expectAccessible(page, 'a page in dark mode');
  });
});
