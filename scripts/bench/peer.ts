/**
 * `npm run bench -- --peer --backend postgres`: this server against
 * PostGraphile 4 (./peers/postgraphile, installed there with `npm ci`) on the
 * same PostgreSQL tables, past every cache of this server (RECORD_CACHE=false,
 * no response cache): the 50-tool page (tools with their slots, the slots'
 * types and static resources) and a single tool's read. The answers are
 * compared first (equal, once put in one shape); then each load runs on both,
 * alternating A/B, over two rounds.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadDefinition, LoadResult } from './loads';
import { NO_CACHE } from './loads';
import type { BenchOptions } from './options';
import { Child, freePort, sleep, type RegistryServer } from './processes';
import type { TargetCheck } from './report';
import { measured, prepareRegistry, progress, settings, withServer } from './run';
import { graphqlBody } from './workloads';

/** The peer comparison's targets (issue 33). */
export const PEER_TARGETS = { speedup: 1.5, pageStatements: 2 } as const;
const ROUNDS = 2;
const PAGE_SIZE = 50;

const SLOT_FIELDS = 'name access binding required';
const OURS = {
  page: `query($first: Int!) { tools(first: $first) { totalCount edges { node { name description resourceSlots { ${SLOT_FIELDS} resourceType { name } staticResource { name type { name } } } } } } }`,
  tool: `query($name: String!) { tool(ref: $name) { name description resourceSlots { ${SLOT_FIELDS} resourceType { name } staticResource { name type { name } } } } }`,
};
const THEIR_TOOL = `name description resourceSlotsByToolId(orderBy: ORDINAL_ASC) { nodes { ${SLOT_FIELDS} resourceTypeByResourceTypeId { name } resourceByStaticResourceId { name resourceTypeByTypeId { name } } } }`;
const THEIRS = {
  page: `query($first: Int!) { allTools(first: $first, orderBy: NAME_ASC) { totalCount nodes { ${THEIR_TOOL} } } }`,
  tool: `query($name: String!) { allTools(condition: { name: $name }) { nodes { ${THEIR_TOOL} } } }`,
};

interface Slot {
  name: string;
  access: string;
  binding: string;
  required: boolean;
  type: string;
  staticResource: { name: string; type: string } | null;
}
interface Tool {
  name: string;
  description: string | null;
  slots: Slot[];
}

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call -- two foreign answer shapes, put in one */
function oursTool(t: any): Tool {
  return {
    name: t.name,
    description: t.description,
    slots: t.resourceSlots.map((s: any) => ({
      name: s.name,
      access: s.access,
      binding: s.binding,
      required: s.required,
      type: s.resourceType.name,
      staticResource: s.staticResource && { name: s.staticResource.name, type: s.staticResource.type.name },
    })),
  };
}

function theirTool(t: any): Tool {
  return {
    name: t.name,
    description: t.description,
    slots: t.resourceSlotsByToolId.nodes.map((s: any) => ({
      name: s.name,
      access: s.access,
      binding: s.binding,
      required: s.required,
      type: s.resourceTypeByResourceTypeId.name,
      staticResource: s.resourceByStaticResourceId && {
        name: s.resourceByStaticResourceId.name,
        type: s.resourceByStaticResourceId.resourceTypeByTypeId.name,
      },
    })),
  };
}

/** The page and the tool in one shape, from either server's answer. */
const SHAPES = {
  ours: {
    page: (d: any) => ({ totalCount: d.tools.totalCount, tools: d.tools.edges.map((e: any) => oursTool(e.node)) }),
    tool: (d: any) => (d.tool ? oursTool(d.tool) : null),
  },
  theirs: {
    page: (d: any) => ({ totalCount: d.allTools.totalCount, tools: d.allTools.nodes.map(theirTool) }),
    tool: (d: any) => (d.allTools.nodes[0] ? theirTool(d.allTools.nodes[0]) : null),
  },
};
/* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call */

async function ask(url: string, query: string, variables: Record<string, unknown>): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...NO_CACHE },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: unknown; errors?: unknown };
  if (response.status !== 200 || body.errors) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return body.data;
}

/** Starts PostGraphile on the database and waits until it answers. */
async function startPeer(root: string, databaseUrl: string): Promise<{ process: Child; url: string }> {
  const dir = join(root, 'scripts', 'bench', 'peers', 'postgraphile');
  if (!existsSync(join(dir, 'node_modules', 'postgraphile')))
    throw new Error(`PostGraphile is not installed: run \`npm ci\` in ${dir} first`);
  const port = await freePort();
  const child = new Child(
    'postgraphile',
    spawn(process.execPath, [join(dir, 'server.cjs')], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), NODE_ENV: 'production' },
    }),
  );
  const url = `http://127.0.0.1:${port}/graphql`;
  for (let tries = 0; tries < 600; tries++) {
    if (child.hasExited) throw new Error(`PostGraphile exited during start-up:\n${child.output()}`);
    try {
      await ask(url, '{ __typename }', {});
      return { process: child, url };
    } catch {
      await sleep(50);
    }
  }
  await child.stop();
  throw new Error(`PostGraphile was not ready:\n${child.output()}`);
}

/** One load on one server: the same requests, answers checked for errors. */
function load(name: string, url: string, bodies: readonly Buffer[], next: () => number): LoadDefinition<null> {
  return {
    name: name as LoadDefinition<null>['name'],
    url,
    next: () => ({ body: bodies[next()], expect: null }),
    verify: () => null,
    verifyEvery: 1_000_000,
    headers: NO_CACHE,
  };
}

/** What the peer comparison measured, and its verdicts. */
export interface PeerReport {
  readonly kind: 'peer';
  readonly rounds: {
    readonly round: number;
    readonly load: string;
    readonly ours: LoadResult;
    readonly theirs: LoadResult;
  }[];
  readonly targets: TargetCheck[];
  readonly errors: boolean;
  readonly elapsedMs: number;
}

export async function runPeer(root: string, options: BenchOptions): Promise<PeerReport> {
  if (options.backend !== 'postgres') throw new Error('--peer needs --backend postgres');
  const started = performance.now();
  const registry = await prepareRegistry(root, options, options.size);
  const names = registry.model.tools.map((t) => t.name).slice(0, 200);
  return withServer(
    root,
    registry,
    async (ours: RegistryServer, databaseUrl: string) => {
      const peer = await startPeer(root, databaseUrl);
      try {
        // Equal answers first: the page, and every tool read.
        for (const kind of ['page', 'tool'] as const) {
          const asked = kind === 'page' ? [{ first: PAGE_SIZE }] : names.slice(0, 20).map((name) => ({ name }));
          for (const variables of asked) {
            const mine = JSON.stringify(SHAPES.ours[kind](await ask(ours.graphqlUrl, OURS[kind], variables)));
            const theirs = JSON.stringify(SHAPES.theirs[kind](await ask(peer.url, THEIRS[kind], variables)));
            if (mine !== theirs)
              throw new Error(`the answers differ for ${kind} ${JSON.stringify(variables)}:\n${mine}\n${theirs}`);
          }
        }
        progress(`peer: the answers are equal (the page, and ${Math.min(20, names.length)} tools)`);
        let turn = 0;
        const pick = (n: number) => () => turn++ % n;
        const bodies = {
          ours: {
            page: [graphqlBody(OURS.page, { first: PAGE_SIZE })],
            tool: names.map((name) => graphqlBody(OURS.tool, { name })),
          },
          theirs: {
            page: [graphqlBody(THEIRS.page, { first: PAGE_SIZE })],
            tool: names.map((name) => graphqlBody(THEIRS.tool, { name })),
          },
        };
        const rounds: PeerReport['rounds'][number][] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          for (const kind of ['page', 'tool'] as const) {
            const n = bodies.ours[kind].length;
            const mine = await measured(
              load(`peer: ${kind} (ours)`, ours.graphqlUrl, bodies.ours[kind], pick(n)),
              settings(options, ours),
            );
            const theirs = await measured(
              load(`peer: ${kind} (postgraphile)`, peer.url, bodies.theirs[kind], pick(n)),
              settings(options, null, peer.process.pid),
            );
            rounds.push({ round, load: kind, ours: mine, theirs });
          }
        }
        return {
          kind: 'peer',
          rounds,
          targets: peerTargets(rounds),
          errors: rounds.some((r) => hasErrorsIn(r.ours) || hasErrorsIn(r.theirs)),
          elapsedMs: performance.now() - started,
        };
      } finally {
        await peer.process.stop();
      }
    },
    { env: { RECORD_CACHE: 'false', RESPONSE_CACHE: 'false' } },
  );
}

function hasErrorsIn(result: LoadResult): boolean {
  const c = result.checks;
  return c.non2xx + c.graphqlErrors + c.wrongBodies + c.connectionErrors + c.timeouts > 0;
}

/** ≥ 1.5× PostGraphile's req/s on both loads (the two rounds' sums), and ≤ 2 statements per page. */
export function peerTargets(rounds: PeerReport['rounds']): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const kind of ['page', 'tool']) {
    const of = rounds.filter((r) => r.load === kind);
    const ours = of.reduce((sum, r) => sum + r.ours.requestsPerSecond, 0);
    const theirs = of.reduce((sum, r) => sum + r.theirs.requestsPerSecond, 0);
    const ratio = theirs > 0 ? ours / theirs : null;
    checks.push({
      target: `${kind}, cold (RECORD_CACHE=false): ≥ ${PEER_TARGETS.speedup} × PostGraphile`,
      measured: ratio === null ? 'not measured' : `${ratio.toFixed(2)}×`,
      pass: ratio === null ? null : ratio >= PEER_TARGETS.speedup,
    });
  }
  const perPage = rounds.filter((r) => r.load === 'page').map((r) => r.ours.sqlPerRequest);
  const worst = perPage.some((n) => n == null) ? null : Math.max(...(perPage as number[]));
  checks.push({
    target: `≤ ${PEER_TARGETS.pageStatements} SQL statements per page, cold`,
    measured: worst === null ? 'not measured' : worst.toFixed(2),
    pass: worst === null ? null : worst <= PEER_TARGETS.pageStatements,
  });
  return checks;
}

/** The rounds as a Markdown table. */
export function peerTable(report: PeerReport): string {
  const lines = [
    '| Round | Load | This server req/s | PostGraphile req/s | Ratio | This server p50 (ms) | PostGraphile p50 (ms) | SQL / request (this server) |',
    '|---:|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of report.rounds) {
    const ratio =
      r.theirs.requestsPerSecond > 0 ? (r.ours.requestsPerSecond / r.theirs.requestsPerSecond).toFixed(2) : '—';
    lines.push(
      `| ${r.round} | ${r.load} | ${Math.round(r.ours.requestsPerSecond)} | ${Math.round(r.theirs.requestsPerSecond)} | ${ratio}× | ${r.ours.latencyMs.p50.toFixed(2)} | ${r.theirs.latencyMs.p50.toFixed(2)} | ${r.ours.sqlPerRequest == null ? '—' : r.ours.sqlPerRequest.toFixed(2)} |`,
    );
  }
  return lines.join('\n');
}
