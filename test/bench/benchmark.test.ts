// The benchmark's own pieces (scripts/bench): its command line, its seeded generator, the registry it
// builds, and that the requests it chooses offline get the answers it expects from the real server.
// No timings are asserted anywhere.
import { expect } from 'chai';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkResourceName, checkSlotName, checkTypeName, isIdRef } from '../../src/core/grammar';
import { generateRegistry, registryShape } from '../../scripts/bench/generate';
import { loadRegistryModel, type RegistryModel } from '../../scripts/bench/model';
import { parseBenchArgs, parseSize, QUICK_SIZE, UsageError } from '../../scripts/bench/options';
import { Random } from '../../scripts/bench/random';
import {
  chooseResolvePairs,
  dashboardRequests,
  DASHBOARD_QUERY,
  RESOLVE_QUERY,
  resolveRequests,
  verifyDashboard,
  verifyResolve,
  verifyWrite,
  writeRequests,
} from '../../scripts/bench/workloads';
import { sqlite } from '../support/backends';
import { startServer } from '../support/server';

describe('benchmark: command line', () => {
  it('reads sizes with k and m suffixes and refuses the rest', () => {
    expect(parseSize('1k', '--size')).to.equal(1_000);
    expect(parseSize('2.5k', '--size')).to.equal(2_500);
    expect(parseSize('100k', '--size')).to.equal(100_000);
    expect(parseSize('1m', '--size')).to.equal(1_000_000);
    expect(parseSize('750', '--size')).to.equal(750);
    for (const bad of ['', 'ten', '1g', '-5', '10', '3m'])
      expect(() => parseSize(bad, '--size'), bad).to.throw(UsageError);
  });

  it('has defaults, a quick mode, growth sizes, and refuses bad combinations', () => {
    const defaults = parseBenchArgs([], '/x');
    expect(defaults).to.include({
      size: 50_000,
      seed: '1',
      quick: false,
      durationSeconds: 10,
      connections: 10,
      out: '/x/bench-results/latest.json',
    });
    expect(defaults?.sizes).to.equal(null);
    const quick = parseBenchArgs(['--quick'], '/x');
    expect(quick).to.include({ size: QUICK_SIZE, quick: true, durationSeconds: 1, out: '/x/bench-results/quick.json' });
    expect(parseBenchArgs(['--sizes', '100k,1k,10k'], '/x')?.sizes).to.deep.equal([1_000, 10_000, 100_000]);
    expect(parseBenchArgs(['--help'])).to.equal(null);
    expect(() => parseBenchArgs(['--size', '1k', '--sizes', '1k,10k'])).to.throw(UsageError);
    expect(() => parseBenchArgs(['--seed', 'a b'])).to.throw(UsageError);
    expect(() => parseBenchArgs(['--frobnicate'])).to.throw(UsageError);
  });
});

describe('benchmark: seeded random generator', () => {
  const draw = (random: Random) => Array.from({ length: 20 }, () => random.nextUint32());

  it('repeats itself for a seed and differs between seeds', () => {
    expect(draw(new Random('7'))).to.deep.equal(draw(new Random('7')));
    expect(draw(new Random('7'))).not.to.deep.equal(draw(new Random('8')));
  });

  it('derives generators that do not depend on how much the parent was used', () => {
    const used = new Random('7');
    draw(used);
    expect(draw(used.derive('x'))).to.deep.equal(draw(new Random('7').derive('x')));
    expect(draw(used.derive('x'))).not.to.deep.equal(draw(used.derive('y')));
  });

  it('stays within the bounds it is given', () => {
    const random = new Random('bounds');
    for (let i = 0; i < 1000; i++) {
      const n = random.int(3, 5);
      expect(n).to.be.within(3, 5);
    }
    expect(new Set(random.sampleIndexes(30, 30))).to.have.length(30);
  });
});

describe('benchmark: synthetic registry', function () {
  const SIZE = 600;
  let dir: string;
  let model: RegistryModel;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-test-'));
    await generateRegistry(join(dir, 'a.sqlite'), SIZE, 'test');
    model = loadRegistryModel(join(dir, 'a.sqlite'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('holds the counts of its shape, in a hierarchy 10 levels deep with some types of several parents', () => {
    const shape = registryShape(SIZE);
    expect(model.counts).to.include({
      types: shape.types,
      resources: SIZE,
      projects: shape.projects,
      tools: shape.tools,
      maxDepth: 9,
    });
    expect(model.counts.links).to.equal(shape.projects * 25);
    expect(model.counts.typesWithSeveralParents).to.be.greaterThan(0);
    expect(model.counts.aliasedLinks).to.be.greaterThan(0);
    for (const binding of ['CONTEXTUAL', 'STATIC', 'PARAMETER'] as const)
      expect(model.counts.slotsByBinding[binding], binding).to.be.greaterThan(0);
    expect(model.state.version).to.be.greaterThan(0);
    expect(model.state.typesVersion).to.be.greaterThan(0);
  });

  it('follows the grammar and the rules: ULID ids, valid names, unique aliases, 1–6 slots, static resources that fit', () => {
    for (const type of model.types) {
      expect(isIdRef(type.id), type.id).to.equal(true);
      expect(checkTypeName(type.name), type.name).to.equal(null);
    }
    for (const resource of model.resources) {
      expect(isIdRef(resource.id)).to.equal(true);
      expect(checkResourceName(resource.name), resource.name).to.equal(null);
    }
    for (const project of model.projects) {
      expect(checkResourceName(project.name), project.name).to.equal(null);
      const aliases = project.links.flatMap((l) => (l.alias === null ? [] : [l.alias]));
      expect(new Set(aliases).size, project.name).to.equal(aliases.length);
      for (const alias of aliases) expect(checkSlotName(alias), alias).to.equal(null);
      expect(new Set(project.links.map((l) => l.resource.id)).size).to.equal(project.links.length);
    }
    for (const tool of model.tools) {
      expect(checkResourceName(tool.name), tool.name).to.equal(null);
      expect(tool.slots.length).to.be.within(1, 6);
      expect(new Set(tool.slots.map((s) => s.name)).size).to.equal(tool.slots.length);
      for (const slot of tool.slots) {
        expect(checkSlotName(slot.name), slot.name).to.equal(null);
        if (slot.binding !== 'STATIC') continue;
        const resource = model.resourceById.get(slot.staticResourceId ?? '');
        expect(resource, `${tool.name}/${slot.name}`).to.not.equal(undefined);
        expect(model.hierarchy.isCompatible(resource!.typeId, slot.typeId), `${tool.name}/${slot.name}`).to.equal(true);
      }
    }
  });

  it('is the same for the same seed and differs for another', async () => {
    await generateRegistry(join(dir, 'b.sqlite'), SIZE, 'test');
    await generateRegistry(join(dir, 'c.sqlite'), SIZE, 'other');
    const fingerprint = (m: RegistryModel) =>
      JSON.stringify([
        m.types,
        m.resources,
        m.projects.map((p) => [p.id, p.name, p.links.map((l) => [l.resource.id, l.alias])]),
        m.tools,
      ]);
    expect(fingerprint(loadRegistryModel(join(dir, 'b.sqlite')))).to.equal(fingerprint(model));
    expect(fingerprint(loadRegistryModel(join(dir, 'c.sqlite')))).to.not.equal(fingerprint(model));
  });

  it('chooses distinct resolving pairs that exercise every binding rule', () => {
    const { pairs, mix } = chooseResolvePairs(model, new Random('pairs'), 5000);
    expect(pairs.length).to.be.greaterThan(50);
    expect(new Set(pairs.map((p) => `${p.tool} @ ${p.project}`)).size).to.equal(pairs.length);
    for (const rule of ['SINGLE_CANDIDATE', 'ALIAS', 'SHORT_NAME', 'STATIC', 'PARAMETER', 'DEFERRED'])
      expect(mix.byRule[rule] ?? 0, rule).to.be.greaterThan(0);
  });

  describe('against the real server', () => {
    let server: Awaited<ReturnType<typeof startServer>>;

    before(async () => {
      copyFileSync(join(dir, 'a.sqlite'), join(dir, 'served.sqlite'));
      server = await startServer(sqlite, { database: { kind: 'sqlite', path: join(dir, 'served.sqlite') } });
    });
    after(() => server.close());

    async function post(body: Buffer): Promise<string> {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status).to.equal(200);
      return response.text();
    }

    it('answers the chosen pairs exactly as the core predicted offline', async () => {
      const { pairs } = chooseResolvePairs(model, new Random('pairs'), 40);
      for (const request of resolveRequests(pairs)) {
        const body = await post(request.body);
        expect(body).to.not.include('"errors"');
        expect(verifyResolve(body, request.expect)).to.equal(null);
      }
    });

    it('notices an answer that differs from the prediction', async () => {
      const [request] = resolveRequests(chooseResolvePairs(model, new Random('pairs'), 1).pairs);
      const body = await post(request.body);
      const wrong = [{ ...request.expect[0], deferred: !request.expect[0].deferred }, ...request.expect.slice(1)];
      expect(verifyResolve(body, wrong)).to.be.a('string');
      expect(verifyResolve(body, request.expect.slice(1))).to.be.a('string');
    });

    it('gets full dashboard pages that start where their cursor says', async () => {
      const pages = dashboardRequests(model);
      for (const page of [pages[0], pages[Math.floor(pages.length / 2)], pages[pages.length - 1]]) {
        const body = await post(page.body);
        expect(verifyDashboard(body, page.expect)).to.equal(null);
      }
      expect(verifyDashboard(await post(pages[0].body), { ...pages[0].expect, firstName: 'someone/else' })).to.be.a(
        'string',
      );
    });

    it('registers fresh, valid tools', async () => {
      const next = writeRequests(model, new Random('write'), 'test');
      for (let i = 0; i < 5; i++) {
        const request = next();
        expect(verifyWrite(await post(request.body), request.expect)).to.equal(null);
      }
    });

    it('uses one fixed query text per load', () => {
      const { pairs } = chooseResolvePairs(model, new Random('pairs'), 10);
      const queries = new Set(
        resolveRequests(pairs).map((r) => (JSON.parse(r.body.toString()) as { query: string }).query),
      );
      expect([...queries]).to.deep.equal([RESOLVE_QUERY]);
      expect(new Set(dashboardRequests(model).map((r) => (JSON.parse(r.body.toString()) as { query: string }).query)))
        .to.have.length(1)
        .and.to.include(DASHBOARD_QUERY);
    });
  });
});
