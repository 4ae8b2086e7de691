// The dashboard's sign-in in Chromium, against a real OpenID Provider (oidc-provider, test/support/oidc-provider.ts)
// started here on loopback: the authorization-code flow with PKCE of its public client, through the provider's own
// sign-in page, back to the page it started from; who is signed in; the change buttons asking viewer.can, a
// refused one saying why; signing out. Then a development server with no token configured, whose token box says
// everyone may write. With UPDATE_SCREENSHOT=1 (npm run screenshots) it writes the pictures.
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { ensureDashboardBuilt } from '../../scripts/build-dashboard';
import { sqlite } from '../support/backends';
import {
  ADMIN_TOKEN,
  admin,
  expectAccessible,
  launch,
  operationsSent,
  screenshot,
  watch,
} from '../support/dashboard-browser';
import { startOidcProvider, type TestOidcProvider } from '../support/oidc-provider';
import { startServer, type TestServer } from '../support/server';

/**
 * Goes through the provider's pages as a person would: its sign-in page (its development interaction: a login
 * name and any password), then its consent page if it shows one, until the browser is sent back to the dashboard.
 * Returns the titles of the pages it went through.
 */
async function throughProvider(page: Page, login: string, issuer: string): Promise<string[]> {
  const titles: string[] = [];
  // Its pages import a web font that cannot load here: wait for their documents, not every resource.
  const ready = { waitUntil: 'domcontentloaded' } as const;
  await page.waitForURL((url) => url.origin === issuer, ready);
  for (let step = 0; step < 4; step++) {
    await page.waitForURL((url) => url.origin !== issuer || /^\/interaction\/[^/]+$/.test(url.pathname), ready);
    if (new URL(page.url()).origin !== issuer) return titles;
    const title = await page.locator('h1').innerText();
    titles.push(title);
    const field = page.locator('input[name="login"]');
    if ((await field.count()) > 0) {
      await field.fill(login);
      // The development page asks for a password too, and takes any.
      await page.locator('input[name="password"]').fill('any');
    }
    const here = page.url();
    const leaving = page.waitForURL((url) => url.href !== here, ready);
    await page.locator('button[type="submit"]').click();
    await leaving;
  }
  throw new Error(`still at the provider after ${titles.join(', ')}`);
}

describe('dashboard in Chromium: signing in with OpenID Connect (a real provider)', function () {
  this.timeout(120_000);
  let provider: TestOidcProvider;
  let server: TestServer;
  let browser: BrowserContext;
  let profile: string;
  let page: Page;
  let seen: ReturnType<typeof watch>;
  /** Every URL answered with an error status (the provider's pages ask for a favicon it does not have). */
  const failed: string[] = [];
  const resourcePage = (name: string) => `${server.origin}/dashboard/resources/${encodeURIComponent(name)}`;

  before(async function () {
    this.timeout(180_000);
    await ensureDashboardBuilt();
    ({ browser, profile } = await launch(this));
    provider = await startOidcProvider({ users: { alice: { groups: ['acme-devs'] } } });
    server = await startServer(sqlite, {
      demoData: true,
      adminToken: ADMIN_TOKEN,
      oidc: {
        issuer: provider.issuer,
        audience: provider.audience,
        jwksUrl: null,
        subjectClaim: 'sub',
        groupsClaim: 'groups',
        dashboardClientId: provider.clientId,
      },
    });
    // The provider sends the browser back to the dashboard's root.
    provider.allowRedirect(`${server.origin}/dashboard`);
    // alice edits acme through her group, and nothing else.
    await admin(server)(
      `mutation { grantRole(input: { principal: "group:acme-devs", role: EDITOR, namespace: "acme" }) { grant { id } } }`,
    );
    page = browser.pages()[0] ?? (await browser.newPage());
    seen = watch(page);
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(response.url());
    });
  });

  after(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await server?.close();
    await provider?.close();
  });

  it("signs in through the provider's pages, back to the page it started from, and shows who is signed in", async () => {
    await page.goto(resourcePage('local/shared-config'));
    const delete_ = page.locator('.danger-zone button');
    // Signed out: the changes are there but refused, saying how to sign in.
    await page.locator('.danger-zone .delete-refused', { hasText: 'sign in' }).waitFor();
    expect(await delete_.getAttribute('aria-disabled')).to.equal('true');

    await page.locator('button.sign-in').click();
    // The provider's sign-in page; it asks no consent of its own client.
    expect(await throughProvider(page, 'alice', provider.issuer)).to.deep.equal(['Sign-in']);
    await page.locator('.signed-in .principal', { hasText: 'user:alice' }).waitFor();
    // Back where sign-in started, with the code and state gone from the address bar.
    const url = new URL(page.url());
    expect(url.pathname + url.search).to.equal('/dashboard/resources/local%2Fshared-config');
    expect(await page.locator('.signed-in .who').getAttribute('title')).to.equal('Groups: group:acme-devs');
    // The access token is in memory only: nothing of the sign-in is left in either storage.
    expect(await page.evaluate('JSON.stringify([Object.keys(localStorage), Object.keys(sessionStorage)])')).to.equal(
      '[[],[]]',
    );
    // Every request after the sign-in carries the provider's token (the server knows her as user:alice).
    const sent = operationsSent(seen.requests);
    expect(sent.map((o) => o.name)).to.include.members(['Viewer', 'ViewerCan']);
    // Nothing failed on the dashboard's side: no script error, no CSP violation, no refused request.
    expect(seen.problems.filter((p) => !p.startsWith('console: Failed to load resource'))).to.deep.equal([]);
    expect(failed.filter((url) => new URL(url).origin !== provider.issuer)).to.deep.equal([]);
  });

  it('asks viewer.can for each change: a delete outside her namespace is disabled, saying why', async () => {
    const delete_ = page.locator('.danger-zone button');
    const reason = 'user:alice may not delete this resource: it needs the EDITOR role on the namespace local.';
    await page.locator('.danger-zone .delete-refused', { hasText: reason }).waitFor();
    expect(await delete_.getAttribute('aria-disabled')).to.equal('true');
    expect(await delete_.getAttribute('title')).to.equal(reason);
    expect(await delete_.innerText()).to.include('Delete local/shared-config');
    await delete_.focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('[role="dialog"][aria-modal="true"]').count(), 'nothing opens').to.equal(0);
    await page.locator('.badge[data-state="live"]').waitFor();
    await screenshot(page, 'sign-in-refused-delete.png');
    await expectAccessible(page, 'a refused delete, signed in');
  });

  it('keeps the token in memory only: a new page load signs out; signing in again needs no form (the provider remembers)', async () => {
    await page.goto(resourcePage('acme/app-repo'));
    await page.locator('button.sign-in').click();
    await page.locator('.signed-in .principal', { hasText: 'user:alice' }).waitFor();
    expect(new URL(page.url()).pathname).to.equal('/dashboard/resources/acme%2Fapp-repo');
    // In her own namespace the same button is enabled.
    const delete_ = page.locator('.danger-zone button', { hasText: 'Delete acme/app-repo' });
    await page.locator('.danger-zone .muted', { hasText: 'A dry run shows' }).waitFor();
    expect(await delete_.getAttribute('aria-disabled')).to.equal(null);
    await page.locator('.badge[data-state="live"]').waitFor();
    await screenshot(page, 'sign-in.png');
    await expectAccessible(page, 'signed in');
  });

  it('signs out: the buttons are refused again, and the token box is back for pasted tokens', async () => {
    await page.locator('.signed-in button', { hasText: 'Sign out' }).click();
    await page.locator('button.sign-in').waitFor();
    await page.locator('.danger-zone .delete-refused', { hasText: 'sign in' }).waitFor();
    expect(await page.locator('button.token-button').innerText()).to.equal('Token: none');
  });
});

describe('dashboard in Chromium: a development server with no token configured', function () {
  this.timeout(120_000);
  let server: TestServer;
  let browser: BrowserContext;
  let profile: string;

  before(async function () {
    this.timeout(180_000);
    await ensureDashboardBuilt();
    ({ browser, profile } = await launch(this));
    server = await startServer(sqlite, { demoData: true });
  });

  after(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await server?.close();
  });

  it('says everyone may change the registry, calls nobody admin, offers no sign-in, and allows the changes', async () => {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(`${server.origin}/dashboard/resources/local%2Fshared-config`);
    await page.locator('button.token-button', { hasText: 'Token: none (open)' }).click();
    const status = await page.locator('.token-status', { hasText: 'everyone may change the registry' }).innerText();
    expect(status).to.include('names them anonymous');
    expect(status).not.to.match(/admin/i);
    expect(await page.locator('button.sign-in').count()).to.equal(0);
    await page.locator('.danger-zone .muted', { hasText: 'A dry run shows' }).waitFor();
    expect(await page.locator('.danger-zone button').getAttribute('aria-disabled')).to.equal(null);
  });
});

describe('dashboard in Chromium: a sign-in that expires', function () {
  this.timeout(120_000);
  let provider: TestOidcProvider;
  let server: TestServer;
  let browser: BrowserContext;
  let profile: string;

  before(async function () {
    this.timeout(180_000);
    await ensureDashboardBuilt();
    ({ browser, profile } = await launch(this));
    // Access tokens that last 3 s.
    provider = await startOidcProvider({ users: { alice: {} }, accessTokenTtlSeconds: 3 });
    server = await startServer(sqlite, {
      demoData: true,
      adminToken: ADMIN_TOKEN,
      oidc: {
        issuer: provider.issuer,
        audience: provider.audience,
        jwksUrl: null,
        subjectClaim: 'sub',
        groupsClaim: 'groups',
        dashboardClientId: provider.clientId,
      },
    });
    provider.allowRedirect(`${server.origin}/dashboard`);
  });

  after(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await server?.close();
    await provider?.close();
  });

  it('forgets the token when it expires, and says so', async () => {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(`${server.origin}/dashboard`);
    await page.locator('button.sign-in').click();
    await throughProvider(page, 'alice', provider.issuer);
    await page.locator('.signed-in .principal', { hasText: 'user:alice' }).waitFor();
    // Its expires_in passes: signed out, with why.
    await page.locator('.sign-in-ended', { hasText: 'Your sign-in expired' }).waitFor();
    await page.locator('button.sign-in').waitFor();
    expect(await page.locator('.signed-in').count()).to.equal(0);
  });
});
