import { expect } from 'chai';
import {
  checkParams,
  describeTypeFamily,
  resolveSlot,
  resolveSlots,
  summarize,
  type ParamValue,
  type ResolutionContext,
} from '../../src/core/binding-resolution';
import type { LinkedResource, ResourceInfo } from '../../src/core/model';
import { hierarchyOf, link, resource, slot } from '../support/core-fixtures';

const hierarchy = hierarchyOf({ 'fs-directory': ['git-checkout'], 'bare-repo': ['git-checkout'], other: [] });
const appRepo = resource('acme/app-repo', 'git-checkout');
const sharedConfig = resource('local/shared-config', 'fs-directory');
const misc = resource('misc/thing', 'other');

function contextWith(links: LinkedResource[], extra: Partial<ResolutionContext> = {}): ResolutionContext {
  return { projectName: 'demo', hierarchy, links, staticResources: new Map(), params: new Map(), ...extra };
}
function paramsOf(entries: Record<string, ResourceInfo | null>): Map<string, ParamValue> {
  return new Map(
    Object.entries(entries).map(([slotName, res]) => [slotName, { ref: res?.name ?? 'no/such', resource: res }]),
  );
}

describe('binding resolution', () => {
  describe('CONTEXTUAL', () => {
    it('binds the single compatible linked resource', () => {
      const r = resolveSlot(slot('repo', 'git-checkout'), contextWith([link(appRepo), link(misc)]));
      expect(r).to.include({ status: 'BOUND', how: 'SINGLE_CANDIDATE', resource: appRepo });
    });

    it('includes sub-types: an fs-directory resource fills a git-checkout slot', () => {
      const r = resolveSlot(slot('repo', 'git-checkout'), contextWith([link(sharedConfig)]));
      expect(r).to.include({ status: 'BOUND', resource: sharedConfig });
    });

    it('includes sub-types transitively', () => {
      const deep = hierarchyOf({ b: ['a'], c: ['b'], d: ['c'] });
      const res = resource('x/deep', 'd');
      const r = resolveSlot(slot('s', 'a'), { ...contextWith([link(res)]), hierarchy: deep });
      expect(r.resource).to.equal(res);
    });

    it('does not accept a parent-type resource for a sub-type slot', () => {
      const r = resolveSlot(slot('dir', 'fs-directory'), contextWith([link(appRepo)]));
      expect(r).to.include({ status: 'FAILED', reason: 'NO_MATCH' });
      expect(r.candidates.map((c) => [c.ref, c.rejection, c.typeChain])).to.deep.equal([
        ['acme/app-repo', 'TYPE_MISMATCH', ['git-checkout']],
      ]);
    });

    it('uses the alias to break a tie', () => {
      const other = resource('acme/other', 'git-checkout');
      const r = resolveSlot(slot('repo', 'git-checkout'), contextWith([link(appRepo, 'repo'), link(other)]));
      expect(r).to.include({ status: 'BOUND', how: 'ALIAS', resource: appRepo });
      expect(r.candidates.find((c) => c.ref === 'acme/other')).to.include({
        accepted: false,
        rejection: 'NOT_CHOSEN_ALIAS',
      });
    });

    it('uses the short name when no alias matches', () => {
      const a = resource('x/repo', 'git-checkout');
      const b = resource('x/tools', 'git-checkout');
      const r = resolveSlot(slot('repo', 'git-checkout'), contextWith([link(a), link(b)]));
      expect(r).to.include({ status: 'BOUND', how: 'SHORT_NAME', resource: a });
      expect(r.candidates.find((c) => c.ref === 'x/tools')).to.include({ rejection: 'NOT_CHOSEN_SHORT_NAME' });
    });

    it('uses the alias before the short name', () => {
      const byShort = resource('x/repo', 'git-checkout');
      const byAlias = resource('y/main', 'git-checkout');
      const r = resolveSlot(slot('repo', 'git-checkout'), contextWith([link(byShort), link(byAlias, 'repo')]));
      expect(r).to.include({ how: 'ALIAS', resource: byAlias });
    });

    it('ignores an alias on an incompatible resource', () => {
      const a = resource('x/a', 'git-checkout');
      const b = resource('x/b', 'git-checkout');
      const r = resolveSlot(slot('repo', 'git-checkout'), contextWith([link(a), link(b), link(misc, 'repo')]));
      expect(r).to.include({ status: 'FAILED', reason: 'AMBIGUOUS' });
    });

    it("suggests moving the slot's alias off an incompatible resource that holds it (the candidates are linked already)", () => {
      const a = resource('x/a', 'git-checkout');
      const b = resource('x/b', 'git-checkout');
      const r = resolveSlot(slot('repo', 'git-checkout'), contextWith([link(a), link(b), link(misc, 'repo')]));
      expect(r.fix).to.equal(
        `alias 'repo' is held by '${misc.name}', which does not fit: move it to one of x/a, x/b with updateLink (or clear it there), or unlink all but one of x/a, x/b`,
      );
    });

    it('is AMBIGUOUS when neither alias nor short name picks one, listing the tied candidates', () => {
      const a = resource('x/a', 'git-checkout');
      const b = resource('y/b', 'fs-directory');
      const r = resolveSlot(slot('repo', 'git-checkout'), contextWith([link(a), link(b), link(misc)]));
      expect(r).to.include({ status: 'FAILED', reason: 'AMBIGUOUS' });
      expect(r.fix).to.equal("set alias 'repo' on one of x/a, y/b with updateLink, or unlink all but one of them");
      const summary = summarize([r]);
      expect(summary).to.deep.include({ ok: false });
      if (!summary.ok)
        expect(summary.problems[0])
          .to.include({ slot: 'repo', reason: 'AMBIGUOUS' })
          .and.to.have.deep.property('candidates', ['x/a', 'y/b']);
    });

    it('reports only the resources still tied when several share the short name', () => {
      const a = resource('x/repo', 'git-checkout');
      const b = resource('y/repo', 'git-checkout');
      const c = resource('z/other', 'git-checkout');
      const r = resolveSlot(slot('repo', 'git-checkout'), contextWith([link(a), link(b), link(c)]));
      expect(r.reason).to.equal('AMBIGUOUS');
      const summary = summarize([r]);
      if (summary.ok) expect.fail('should fail');
      expect(summary.problems[0].candidates).to.deep.equal(['x/repo', 'y/repo']);
      expect(r.candidates.find((v) => v.ref === 'z/other')).to.include({ rejection: 'NOT_CHOSEN_SHORT_NAME' });
    });

    it('fails a required slot with NO_MATCH when nothing fits, naming the type and its sub-types', () => {
      const r = resolveSlot(slot('repo', 'git-checkout'), contextWith([link(misc)]));
      expect(r).to.include({ status: 'FAILED', reason: 'NO_MATCH' });
      expect(r.message).to.equal(
        "slot 'repo': no resource of type git-checkout or its sub-types (bare-repo, fs-directory) is linked to project demo",
      );
      const summary = summarize([r]);
      if (summary.ok) expect.fail('should fail');
      expect(summary.problems[0].candidates).to.deep.equal([]);
    });

    it('leaves an optional slot unbound without error when nothing fits', () => {
      const r = resolveSlot(slot('repo', 'git-checkout', { required: false }), contextWith([]));
      expect(r).to.include({ status: 'UNBOUND_OPTIONAL', resource: null });
      expect(summarize([r])).to.deep.equal({
        ok: true,
        results: [
          { slotName: 'repo', bindingMode: 'CONTEXTUAL', access: 'READ_ONLY', resource: null, deferred: false },
        ],
      });
    });

    it('still fails an optional slot that is ambiguous', () => {
      const r = resolveSlot(
        slot('s', 'git-checkout', { required: false }),
        contextWith([link(appRepo), link(sharedConfig)]),
      );
      expect(r).to.include({ status: 'FAILED', reason: 'AMBIGUOUS' });
    });
  });

  describe('STATIC', () => {
    const staticSlot = slot('config', 'fs-directory', { binding: 'STATIC', staticResourceId: sharedConfig.id });
    it('binds the registered resource when its type fits', () => {
      const r = resolveSlot(
        staticSlot,
        contextWith([], { staticResources: new Map([[sharedConfig.id, sharedConfig]]) }),
      );
      expect(r).to.include({ status: 'BOUND', how: 'STATIC', resource: sharedConfig });
    });
    it('is NOT_FOUND when the resource is gone', () => {
      const r = resolveSlot(staticSlot, contextWith([]));
      expect(r).to.include({ status: 'FAILED', reason: 'NOT_FOUND' });
    });
    it('is TYPE_MISMATCH when the type does not fit, naming the resource', () => {
      const s = slot('config', 'fs-directory', { binding: 'STATIC', staticResourceId: appRepo.id });
      const r = resolveSlot(s, contextWith([], { staticResources: new Map([[appRepo.id, appRepo]]) }));
      expect(r).to.include({ status: 'FAILED', reason: 'TYPE_MISMATCH' });
      const summary = summarize([r]);
      if (summary.ok) expect.fail('should fail');
      expect(summary.problems[0].candidates).to.deep.equal(['acme/app-repo']);
    });
    it('does not look at project links', () => {
      const r = resolveSlot(staticSlot, contextWith([link(sharedConfig, 'config')]));
      expect(r.reason).to.equal('NOT_FOUND');
    });
  });

  describe('PARAMETER', () => {
    const paramSlot = slot('output', 'fs-directory', { binding: 'PARAMETER', access: 'WRITE_ONLY' });
    it('is deferred with no resource when no param names it, even when required', () => {
      const r = resolveSlot(paramSlot, contextWith([link(sharedConfig)]));
      expect(r).to.include({ status: 'DEFERRED', resource: null });
      const summary = summarize([r]);
      expect(summary).to.deep.equal({
        ok: true,
        results: [
          { slotName: 'output', bindingMode: 'PARAMETER', access: 'WRITE_ONLY', resource: null, deferred: true },
        ],
      });
    });
    it('binds eagerly when a param names a compatible resource', () => {
      const r = resolveSlot(paramSlot, contextWith([], { params: paramsOf({ output: sharedConfig }) }));
      expect(r).to.include({ status: 'BOUND', how: 'PARAMETER', resource: sharedConfig });
      const summary = summarize([r]);
      if (!summary.ok) expect.fail('should bind');
      expect(summary.results[0].deferred).to.equal(false);
    });
    it('is NOT_FOUND at slot level when the param names nothing', () => {
      const r = resolveSlot(paramSlot, contextWith([], { params: paramsOf({ output: null }) }));
      expect(r).to.include({ status: 'FAILED', reason: 'NOT_FOUND' });
    });
    it('is TYPE_MISMATCH when the named resource does not fit', () => {
      const r = resolveSlot(paramSlot, contextWith([], { params: paramsOf({ output: appRepo }) }));
      expect(r).to.include({ status: 'FAILED', reason: 'TYPE_MISMATCH' });
    });
  });

  describe('resolveSlots and summarize', () => {
    it("resolves the seed's Mixed Bindings tool in order", () => {
      const slots = [
        slot('repo', 'git-checkout', { access: 'READ_WRITE' }),
        slot('config', 'fs-directory', { binding: 'STATIC', staticResourceId: sharedConfig.id }),
        slot('output', 'fs-directory', { binding: 'PARAMETER', access: 'WRITE_ONLY' }),
      ];
      const summary = summarize(
        resolveSlots(
          slots,
          contextWith([link(appRepo, 'repo')], { staticResources: new Map([[sharedConfig.id, sharedConfig]]) }),
        ),
      );
      expect(summary).to.deep.equal({
        ok: true,
        results: [
          { slotName: 'repo', bindingMode: 'CONTEXTUAL', access: 'READ_WRITE', resource: appRepo, deferred: false },
          { slotName: 'config', bindingMode: 'STATIC', access: 'READ_ONLY', resource: sharedConfig, deferred: false },
          { slotName: 'output', bindingMode: 'PARAMETER', access: 'WRITE_ONLY', resource: null, deferred: true },
        ],
      });
    });

    it('reports every failing slot, not just the first', () => {
      const slots = [slot('a', 'fs-directory'), slot('b', 'git-checkout'), slot('c', 'other')];
      const summary = summarize(
        resolveSlots(slots, contextWith([link(appRepo), link(resource('x/b2', 'git-checkout'))])),
      );
      if (summary.ok) expect.fail('should fail');
      expect(summary.problems.map((p) => [p.slot, p.reason])).to.deep.equal([
        ['a', 'NO_MATCH'],
        ['b', 'AMBIGUOUS'],
        ['c', 'NO_MATCH'],
      ]);
      for (const p of summary.problems) expect(p.message).to.be.a('string').and.not.equal('');
    });

    it('suggests a fix in each problem message', () => {
      const summary = summarize([
        resolveSlot(slot('repo', 'git-checkout'), contextWith([link(appRepo), link(sharedConfig)])),
      ]);
      if (summary.ok) expect.fail('should fail');
      expect(summary.problems[0].message).to.match(
        /set alias 'repo' on one of acme\/app-repo, local\/shared-config with updateLink, or unlink all but one of them$/,
      );
    });
  });

  describe('checkParams', () => {
    const slots = [slot('repo', 'git-checkout'), slot('output', 'fs-directory', { binding: 'PARAMETER' })];
    it('accepts params for PARAMETER slots', () => {
      expect(checkParams('t', slots, [{ slot: 'output' }])).to.deep.equal([]);
    });
    it('refuses a param naming a slot the tool lacks', () => {
      expect(checkParams('t', slots, [{ slot: 'nope' }])).to.deep.equal([
        { field: 'params[0].slot', message: "tool 't' has no slot 'nope'" },
      ]);
    });
    it('refuses a param for a slot that is not PARAMETER-bound', () => {
      expect(checkParams('t', slots, [{ slot: 'repo' }])[0].message).to.match(/CONTEXTUAL-bound/);
    });
    it('refuses two params for one slot', () => {
      const problems = checkParams('t', slots, [{ slot: 'output' }, { slot: 'output' }]);
      expect(problems).to.deep.equal([
        { field: 'params[1].slot', message: "slot 'output' is given twice (params[0] and params[1])" },
      ]);
    });
  });

  describe('describeTypeFamily', () => {
    it('names the type alone when it has no sub-types', () => {
      expect(describeTypeFamily({ hierarchy }, 'other')).to.equal('other');
    });
    it('elides after five sub-types', () => {
      const wide = hierarchyOf({ a1: ['r'], a2: ['r'], a3: ['r'], a4: ['r'], a5: ['r'], a6: ['r'] });
      expect(describeTypeFamily({ hierarchy: wide }, 'r')).to.equal('r or its sub-types (a1, a2, a3, a4, a5, …)');
    });
  });
});
