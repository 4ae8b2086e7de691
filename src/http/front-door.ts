import type { FastifyInstance } from 'fastify';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildInfo } from '../version';
import { DASHBOARD_PATH } from './dashboard';
import { errorBody } from '../engine/error-mapping';

/** Where the front page points. */
export interface FrontDoorLinks {
  /** Whether GET /metrics is served (METRICS=true). */
  readonly metrics: boolean;
}

/** The front page's security policy: its own inline styles, nothing else. */
const FRONT_PAGE_CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * `GET /`: a small HTML page for a browser (its Accept header names
 * text/html) linking GraphiQL, the dashboard, the health endpoints and the
 * docs; anyone else gets the same as JSON. `GET /docs` lists the package's
 * documentation (README.md and docs/*.md, as shipped) and `GET /docs/<file>`
 * answers one as plain text.
 */
export function registerFrontDoor(
  fastify: FastifyInstance,
  build: BuildInfo,
  links: FrontDoorLinks,
  docsRoot: string,
): void {
  const endpoints = {
    graphql: '/graphql',
    dashboard: DASHBOARD_PATH,
    healthz: '/healthz',
    readyz: '/readyz',
    ...(links.metrics ? { metrics: '/metrics' } : {}),
    docs: '/docs',
  };
  const body = { name: 'tool-registry', version: build.version, commit: build.commit, endpoints };
  const page = frontPage(build, links);
  fastify.get('/', async (request, reply) => {
    void reply.header('vary', 'Accept');
    if (!wantsHtml(request.headers.accept)) return reply.send(body);
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', FRONT_PAGE_CONTENT_SECURITY_POLICY)
      .send(page);
  });

  const docs = documentationFiles(docsRoot);
  fastify.get('/docs', async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', FRONT_PAGE_CONTENT_SECURITY_POLICY)
      .send(docsIndex([...docs.keys()])),
  );
  fastify.get<{ Params: { file: string } }>('/docs/:file', async (request, reply) => {
    const path = docs.get(request.params.file);
    if (path === undefined) return reply.code(404).send(errorBody(`no document ${request.params.file}`, 'NOT_FOUND'));
    return reply.type('text/plain; charset=utf-8').send(readFileSync(path));
  });
}

/** True when the Accept header names text/html (a browser's does; curl's and clients' do not). */
function wantsHtml(accept: string | undefined): boolean {
  return typeof accept === 'string' && /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept);
}

/** The shipped documents, by the name they are served under: README.md, then docs/*.md. */
function documentationFiles(root: string): Map<string, string> {
  const files = new Map<string, string>([['README.md', join(root, 'README.md')]]);
  let names: string[] = [];
  try {
    names = readdirSync(join(root, 'docs')).filter((name) => /^[\w.-]+\.md$/.test(name));
  } catch {
    // no docs folder
  }
  for (const name of names.sort()) files.set(name, join(root, 'docs', name));
  return files;
}

function frontPage(build: BuildInfo, links: FrontDoorLinks): string {
  const item = (href: string, text: string, what: string) =>
    `<li><a href="${href}">${text}</a> <span>${what}</span></li>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tool registry</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.6rem;margin-bottom:0}p.version{color:#666;margin-top:.2rem}li{margin:.4rem 0}li span{color:#666}
a{color:#0b5cad}</style></head>
<body>
<h1>Tool registry</h1>
<p class="version">version ${escapeHtml(build.version)} (${escapeHtml(build.commit)})</p>
<p>A GraphQL registry of tools, the resources they work on, and how their slots bind.</p>
<ul>
${[
  item('/graphql', 'GraphiQL', 'write and run queries against /graphql'),
  item(DASHBOARD_PATH, 'Dashboard', 'the binding matrix, types, resources and history'),
  item('/healthz', '/healthz', 'the process is up'),
  item('/readyz', '/readyz', 'the database answers and accepts writes'),
  ...(links.metrics ? [item('/metrics', '/metrics', 'Prometheus metrics')] : []),
  item('/docs', 'Docs', 'the README and the operations guide'),
].join('\n')}
</ul>
</body>
</html>
`;
}

function docsIndex(names: string[]): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Tool registry: docs</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}</style></head>
<body>
<h1>Docs</h1>
<ul>
${names.map((name) => `<li><a href="/docs/${encodeURIComponent(name)}">${escapeHtml(name)}</a></li>`).join('\n')}
</ul>
<p><a href="/">Back</a></p>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
