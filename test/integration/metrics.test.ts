import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPERATION_NAME_LABELS } from '../../src/observability/metrics';
import { buildInfo } from '../../src/version';
import { describeEachBackend, sqlite } from '../support/backends';
import { startServer, type TestServer } from '../support/server';
import { collect, subscriptionClient } from '../support/subscriptions';

/** Debian's prometheus package (`apt-get install prometheus`; .ci/run installs it). */
const PROMETHEUS = '/usr/bin/prometheus';

const RESOLVE = 'query Resolve { resolveBindings(tool: "demo/mixed", project: "demo") { slotName } }';
const TOKEN = 'metrics-scrape-token-0123456789';

/** The value of one sample in a text exposition (labels given must all match), or undefined. */
function sample(exposition: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of exposition.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => given[key] === value)) return Number(match[3]);
  }
  return undefined;
}

async function scrape(server: TestServer, token: string | null = TOKEN): Promise<string> {
  const response = await fetch(`${server.origin}/metrics`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  expect(response.status).to.equal(200);
  expect(response.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

describe('metrics at GET /metrics', function () {
  this.timeout(60_000);

  it('is not served unless METRICS=true', async () => {
    const server = await startServer(sqlite);
    try {
      expect((await fetch(`${server.origin}/metrics`)).status).to.equal(404);
    } finally {
      await server.close();
    }
  });

  it('needs METRICS_TOKEN as a bearer token when it is set', async () => {
    const server = await startServer(sqlite, { metrics: true, metricsToken: TOKEN });
    try {
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer wrong-token' },
        { authorization: TOKEN },
      ];
      for (const headers of attempts) {
        const refused = await fetch(`${server.origin}/metrics`, { headers });
        expect(refused.status, JSON.stringify(headers)).to.equal(401);
        expect(((await refused.json()) as any).errors[0].extensions.code).to.equal('UNAUTHENTICATED');
      }
      expect(sample(await scrape(server), 'registry_build_info', { version: buildInfo().version })).to.equal(1);
    } finally {
      await server.close();
    }
  });

  it(`labels the first ${OPERATION_NAME_LABELS} operation names and counts the rest as other; entity names and tokens never appear`, async () => {
    const server = await startServer(sqlite, {
      metrics: true,
      demoData: true,
      adminToken: 'an-admin-token-for-metrics',
    });
    try {
      const names = Array.from({ length: OPERATION_NAME_LABELS + 5 }, (_, i) => `Op${i}`);
      for (const name of names) await server.gql(`query ${name} { __typename }`);
      await server.gql(RESOLVE);
      const exposition = await scrape(server, null);
      const labelled = new Set(
        [...exposition.matchAll(/^registry_graphql_operations_total\{[^}]*operation_name="([^"]*)"/gm)].map(
          (m) => m[1],
        ),
      );
      expect(labelled.size).to.equal(OPERATION_NAME_LABELS + 1);
      expect(labelled.has(`Op${OPERATION_NAME_LABELS - 1}`)).to.equal(true);
      expect(labelled.has(`Op${OPERATION_NAME_LABELS}`)).to.equal(false);
      expect(sample(exposition, 'registry_graphql_operations_total', { operation_name: 'other' })).to.equal(6);
      for (const secret of ['demo/mixed', 'acme/app-repo', 'an-admin-token-for-metrics']) {
        expect(exposition).to.not.contain(secret);
      }
    } finally {
      await server.close();
    }
  });
});

describeEachBackend('metrics of the database and the caches', (backend) => {
  it('counts record-cache hits and misses, and on PostgreSQL reports both connection pools', async function () {
    this.timeout(60_000);
    const server = await startServer(backend, { metrics: true, demoData: true, responseCache: false });
    try {
      for (let i = 0; i < 3; i++) await server.data(RESOLVE);
      const exposition = await scrape(server, null);
      expect(sample(exposition, 'registry_record_cache_hits_total', { cache: 'records' })).to.be.greaterThan(0);
      expect(sample(exposition, 'registry_record_cache_misses_total', { cache: 'records' })).to.be.greaterThan(0);
      expect(sample(exposition, 'registry_record_cache_bytes', { cache: 'records' })).to.be.greaterThan(0);
      expect(sample(exposition, 'registry_response_cache_bytes')).to.equal(0);
      if (backend.name === 'postgres') {
        for (const pool of ['read', 'write']) {
          expect(sample(exposition, 'registry_db_pool_size', { pool }), pool).to.be.at.least(1);
          expect(sample(exposition, 'registry_db_pool_idle', { pool }), pool).to.be.at.least(0);
          expect(sample(exposition, 'registry_db_pool_waiting', { pool }), pool).to.equal(0);
        }
      } else {
        expect(sample(exposition, 'registry_db_pool_size')).to.equal(undefined);
      }
    } finally {
      await server.close();
    }
  });
});

/**
 * A real Prometheus (Debian's package) scrapes the server every second, with
 * the bearer token, on a port of its own; its HTTP API must show the target
 * up and the series the known requests below make.
 */
describe('scraped by a real Prometheus', function () {
  this.timeout(120_000);
  let server: TestServer;
  let prometheus: ChildProcess | null = null;
  let prometheusUrl = '';
  let folder = '';
  let output = '';
  let demoVersion = 0;
  let subscriber = null as ReturnType<typeof subscriptionClient> | null;

  before(async function () {
    if (!existsSync(PROMETHEUS)) {
      if (process.env.REQUIRE_PROMETHEUS === '1') throw new Error(`REQUIRE_PROMETHEUS=1, but ${PROMETHEUS} is missing`);
      console.log(`      (skipped: no ${PROMETHEUS}; apt-get install prometheus)`);
      this.skip();
    }
    server = await startServer(sqlite, { metrics: true, metricsToken: TOKEN, demoData: true });
    demoVersion = (await server.app.versioning.current()).version;

    // Known requests: three resolves (a miss, then two hits), a mutation, a request refused with 400.
    for (let i = 0; i < 3; i++) await server.data(RESOLVE);
    // A subscriber that stays open while Prometheus scrapes, and gets the mutation's change.
    subscriber = subscriptionClient(server.url);
    const delivered: unknown[] = [];
    void collect<unknown>(
      subscriber,
      'subscription { registryChanged { version } }',
      {},
      (items) => {
        delivered.splice(0, delivered.length, ...items);
        return false;
      },
      100_000,
    );
    for (let i = 0; i < 100 && server.app.services.feed.size === 0; i++) await sleep(50);
    await server.data('mutation Add { createProject(input: { name: "scraped" }) { project { id } } }');
    for (let i = 0; i < 100 && delivered.length === 0; i++) await sleep(50);
    expect(delivered).to.have.length(1);
    expect((await server.gql('{ nope }')).status).to.equal(400);

    folder = mkdtempSync(join(tmpdir(), 'registry-prometheus-'));
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    const config = join(folder, 'prometheus.yml');
    writeFileSync(
      config,
      [
        'global:',
        '  scrape_interval: 1s',
        '  scrape_timeout: 1s',
        'scrape_configs:',
        '  - job_name: registry',
        '    metrics_path: /metrics',
        '    authorization:',
        `      credentials: ${TOKEN}`,
        '    static_configs:',
        `      - targets: ['${new URL(server.origin).host}']`,
        '',
      ].join('\n'),
    );
    prometheus = spawn(
      PROMETHEUS,
      [
        `--config.file=${config}`,
        `--storage.tsdb.path=${join(folder, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    prometheus.stdout!.on('data', (chunk) => (output += chunk));
    prometheus.stderr!.on('data', (chunk) => (output += chunk));
  });

  after(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
      prometheus.kill('SIGTERM');
      await exited;
    }
    if (folder) rmSync(folder, { recursive: true, force: true });
    await subscriber?.dispose();
    await server?.close();
  });

  /** An instant query's result: each series' labels and value. */
  async function query(promql: string): Promise<{ metric: Record<string, string>; value: number }[]> {
    const response = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await response.json()) as {
      status: string;
      data: { result: { metric: Record<string, string>; value: [number, string] }[] };
    };
    expect(body.status).to.equal('success');
    return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
  }

  /** The value of a query with one series, once Prometheus has it (it scrapes every second). */
  async function valueOf(promql: string): Promise<number> {
    for (let tries = 0; tries < 60; tries++) {
      const result = await query(promql).catch(() => []);
      if (result.length === 1) return result[0].value;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error(`Prometheus never answered ${promql} with one series:\n${output.slice(-2000)}`);
  }

  it('sees the target up, with the token', async () => {
    expect(await valueOf('up{job="registry"}')).to.equal(1);
  });

  it('has the known requests by route, method and status, and by operation name and outcome', async () => {
    expect(await valueOf('registry_http_requests_total{route="/graphql",method="POST",status="200"}')).to.equal(4);
    expect(await valueOf('registry_http_requests_total{route="/graphql",method="POST",status="400"}')).to.equal(1);
    expect(
      await valueOf('registry_graphql_operations_total{operation_type="query",operation_name="Resolve",outcome="ok"}'),
    ).to.equal(3);
    expect(await valueOf('registry_graphql_operations_total{operation_type="mutation",operation_name="Add"}')).to.equal(
      1,
    );
    expect(await valueOf('registry_graphql_operations_total{operation_name="anonymous",outcome="rejected"}')).to.equal(
      1,
    );
    expect(await valueOf('sum(registry_graphql_duration_seconds_count)')).to.equal(5);
  });

  it('has the response cache, the registry version, the change feed and the process', async () => {
    // The first resolve, and the refused request (it was looked up before it failed validation).
    expect(await valueOf('registry_response_cache_misses_total')).to.equal(2);
    expect(await valueOf('registry_response_cache_hits_total')).to.equal(2);
    expect(await valueOf('registry_response_cache_bytes')).to.be.greaterThan(0);
    expect(await valueOf('registry_version')).to.equal(demoVersion + 1);
    expect(await valueOf('registry_subscription_events_total')).to.equal(1);
    expect(await valueOf('registry_change_feed_lag_seconds_count')).to.equal(1);
    expect(await valueOf('registry_subscriptions_active')).to.equal(1);
    expect(await valueOf(`registry_build_info{version="${buildInfo().version}"}`)).to.equal(1);
    expect(await valueOf('process_cpu_seconds_total{job="registry"}')).to.be.greaterThan(0);
  });
});
