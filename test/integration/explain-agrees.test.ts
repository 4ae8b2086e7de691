import { expect } from 'chai';
import fc from 'fast-check';
import { describeEachBackend } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

/**
 * resolveBindings and explainBindings share one resolution core; over many
 * generated registries they must agree on every tool × project pair.
 */
const TYPES = ['t-root', 't-a', 't-b', 't-ab', 't-c'];
const PARENTS: Record<string, string[]> = { 't-a': ['t-root'], 't-b': ['t-root'], 't-ab': ['t-a', 't-b'], 't-c': [] };
const SLOT_NAMES = ['repo', 'config', 'out', 'r1'];

const registryArb = fc.record({
  resources: fc.array(
    fc.record({ segment: fc.constantFrom('repo', 'config', 'out', 'r1', 'misc'), type: fc.constantFrom(...TYPES) }),
    { minLength: 3, maxLength: 10 },
  ),
  projects: fc.array(
    fc.array(fc.record({ index: fc.nat(), alias: fc.option(fc.constantFrom(...SLOT_NAMES), { nil: null }) }), {
      maxLength: 5,
    }),
    { minLength: 1, maxLength: 4 },
  ),
  tools: fc.array(
    fc.array(
      fc.record({
        name: fc.constantFrom(...SLOT_NAMES),
        type: fc.constantFrom(...TYPES),
        binding: fc.constantFrom('CONTEXTUAL', 'CONTEXTUAL', 'STATIC', 'PARAMETER'),
        required: fc.boolean(),
        staticIndex: fc.nat(),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    { minLength: 1, maxLength: 4 },
  ),
  paramIndex: fc.option(fc.nat(), { nil: null }),
});

describeEachBackend('resolveBindings and explainBindings agree', (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(backend);
    const r = registryOf(server);
    await r.type('t-root');
    for (const type of TYPES.slice(1)) await r.type(type, PARENTS[type]);
  });
  after(() => server.close());

  it('on every tool × project pair of 25 generated registries', async () => {
    const samples = fc.sample(registryArb, { numRuns: 25, seed: 20261130 });
    let pairs = 0;
    for (const [n, spec] of samples.entries()) {
      const r = registryOf(server);
      const resources = spec.resources.map((res, i) => `g${n}/n${i}/${res.segment}`);
      for (const [i, res] of spec.resources.entries()) await r.resource(resources[i], res.type);
      const projects: string[] = [];
      for (const [p, links] of spec.projects.entries()) {
        const name = `g${n}/p${p}`;
        projects.push(name);
        await r.project(name);
        const linked = new Set<string>();
        const aliases = new Set<string>();
        for (const link of links) {
          const resource = resources[link.index % resources.length];
          if (linked.has(resource)) continue;
          const alias = link.alias && !aliases.has(link.alias) ? link.alias : null;
          linked.add(resource);
          if (alias) aliases.add(alias);
          await r.link(name, resource, alias);
        }
      }
      const tools: { name: string; paramSlot: string | null }[] = [];
      for (const [t, slots] of spec.tools.entries()) {
        const seen = new Set<string>();
        const valid = slots.filter((s) => !seen.has(s.name) && seen.add(s.name));
        const input = valid.map((s) => {
          if (s.binding !== 'STATIC')
            return { name: s.name, resourceType: s.type, binding: s.binding, required: s.required };
          // A static slot must pass registration: pick a compatible resource, or fall back to a contextual slot.
          const compatible = spec.resources
            .map((res, i) => ({ res, i }))
            .filter(({ res }) => res.type === s.type || ancestors(res.type).includes(s.type));
          if (compatible.length === 0)
            return { name: s.name, resourceType: s.type, binding: 'CONTEXTUAL', required: s.required };
          return {
            name: s.name,
            resourceType: s.type,
            binding: 'STATIC',
            staticResource: resources[compatible[s.staticIndex % compatible.length].i],
            required: s.required,
          };
        });
        const name = `g${n}/t${t}`;
        await r.tool(name, input);
        tools.push({ name, paramSlot: input.find((s) => s.binding === 'PARAMETER')?.name ?? null });
      }
      for (const tool of tools) {
        for (const project of projects) {
          const params =
            tool.paramSlot && spec.paramIndex !== null
              ? [{ slot: tool.paramSlot, resource: resources[spec.paramIndex % resources.length] }]
              : [];
          await expectAgreement(tool.name, project, params);
          pairs++;
        }
      }
    }
    expect(pairs).to.be.greaterThan(50);
  });

  async function expectAgreement(tool: string, project: string, params: { slot: string; resource: string }[]) {
    const resolved = await server.gql(
      `query($t: String!, $p: String!, $params: [BindingParamInput!]) { resolveBindings(tool: $t, project: $p, params: $params) { slotName resource { name } deferred } }`,
      { t: tool, p: project, params },
    );
    const explained = (
      await server.data(
        `query($t: String!, $p: String!, $params: [BindingParamInput!]) { explainBindings(tool: $t, project: $p, params: $params) { ok slots { slotName status reason resource { name } candidates { ref rejection } } } }`,
        { t: tool, p: project, params },
      )
    ).explainBindings;
    const label = `${tool} in ${project} ${JSON.stringify(params)}`;
    if (resolved.body.errors) {
      expect(explained.ok, label).to.equal(false);
      const problems = resolved.body.errors[0].extensions?.problems as {
        slot: string;
        reason: string;
        candidates: string[];
      }[];
      const failed = explained.slots.filter((s: any) => s.status === 'FAILED');
      expect(
        failed.map((s: any) => [s.slotName, s.reason]),
        label,
      ).to.deep.equal(problems.map((p) => [p.slot, p.reason]));
      for (const [i, problem] of problems.entries()) {
        if (problem.reason === 'AMBIGUOUS') {
          expect(
            failed[i].candidates.filter((c: any) => c.rejection === 'AMBIGUOUS').map((c: any) => c.ref),
            label,
          ).to.deep.equal(problem.candidates);
        }
      }
    } else {
      expect(explained.ok, label).to.equal(true);
      const results = resolved.body.data!.resolveBindings as {
        slotName: string;
        resource: { name: string } | null;
        deferred: boolean;
      }[];
      expect(
        explained.slots.map((s: any) => [s.slotName, s.resource?.name ?? null, s.status === 'DEFERRED']),
        label,
      ).to.deep.equal(results.map((b) => [b.slotName, b.resource?.name ?? null, b.deferred]));
    }
  }
});

function ancestors(type: string): string[] {
  const out: string[] = [];
  const queue = [...(PARENTS[type] ?? [])];
  while (queue.length) {
    const next = queue.shift()!;
    if (!out.includes(next)) {
      out.push(next);
      queue.push(...(PARENTS[next] ?? []));
    }
  }
  return out;
}
