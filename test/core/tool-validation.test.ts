import { expect } from 'chai';
import {
  validateToolSlots,
  withDefaults,
  type SlotDraft,
  type ToolValidationLookups,
} from '../../src/core/tool-validation';
import { hierarchyOf, resource } from '../support/core-fixtures';

describe('validateToolSlots', () => {
  const hierarchy = hierarchyOf({ 'fs-directory': ['git-checkout'], other: [] });
  const resources = [
    resource('local/shared-config', 'fs-directory'),
    resource('acme/app-repo', 'git-checkout'),
    resource('misc/thing', 'other'),
  ];
  const lookups: ToolValidationLookups = {
    hierarchy,
    typeByRef: (ref) => hierarchy.byName(ref),
    resourceByRef: (ref) => resources.find((r) => r.name === ref),
  };
  const check = (...slots: SlotDraft[]) => validateToolSlots(slots, lookups);

  it("fills the seed's defaults: READ_ONLY, CONTEXTUAL, required", () => {
    expect(withDefaults({ name: 'repo', resourceType: 'git-checkout' })).to.deep.equal({
      name: 'repo',
      resourceType: 'git-checkout',
      access: 'READ_ONLY',
      binding: 'CONTEXTUAL',
      staticResource: null,
      required: true,
    });
  });

  it("accepts the seed's Mixed Bindings tool and resolves refs to ids", () => {
    const result = check(
      { name: 'repo', resourceType: 'git-checkout', access: 'READ_WRITE', binding: 'CONTEXTUAL' },
      { name: 'config', resourceType: 'fs-directory', binding: 'STATIC', staticResource: 'local/shared-config' },
      { name: 'output', resourceType: 'fs-directory', access: 'WRITE_ONLY', binding: 'PARAMETER' },
    );
    expect(result.problems).to.deep.equal([]);
    expect(result.slots.map((s) => [s.name, s.typeId, s.binding, s.staticResourceId])).to.deep.equal([
      ['repo', 'git-checkout', 'CONTEXTUAL', null],
      ['config', 'fs-directory', 'STATIC', 'local/shared-config'],
      ['output', 'fs-directory', 'PARAMETER', null],
    ]);
  });

  it('reports duplicate slot names', () => {
    const { problems } = check(
      { name: 'repo', resourceType: 'git-checkout' },
      { name: 'repo', resourceType: 'git-checkout' },
    );
    expect(problems).to.have.length(1);
    expect(problems[0]).to.include({ slot: 'repo', field: 'name' });
  });

  it('reports a slot type that is not registered', () => {
    const { problems } = check({ name: 'x', resourceType: 'nope' });
    expect(problems).to.deep.equal([
      {
        slot: 'x',
        field: 'resourceType',
        message: "slot 1 ('x') requires resource type 'nope', which is not registered",
      },
    ]);
  });

  it('reports STATIC without a staticResource', () => {
    const { problems } = check({ name: 'c', resourceType: 'fs-directory', binding: 'STATIC' });
    expect(problems.map((p) => [p.slot, p.field])).to.deep.equal([['c', 'staticResource']]);
    expect(problems[0].message).to.match(/names no staticResource/);
  });

  it('reports a staticResource on a non-STATIC slot', () => {
    for (const binding of ['CONTEXTUAL', 'PARAMETER'] as const) {
      const { problems } = check({
        name: 'c',
        resourceType: 'fs-directory',
        binding,
        staticResource: 'local/shared-config',
      });
      expect(
        problems.map((p) => p.field),
        binding,
      ).to.deep.equal(['staticResource']);
      expect(problems[0].message).to.match(new RegExp(`is ${binding}`));
    }
  });

  it('reports a staticResource that is not registered', () => {
    const { problems } = check({
      name: 'c',
      resourceType: 'fs-directory',
      binding: 'STATIC',
      staticResource: 'no/such',
    });
    expect(problems[0].message).to.match(/'no\/such', which is not registered/);
  });

  it("reports a staticResource whose type does not fit, showing the resource's type chain", () => {
    const { problems } = check({
      name: 'c',
      resourceType: 'fs-directory',
      binding: 'STATIC',
      staticResource: 'acme/app-repo',
    });
    expect(problems).to.have.length(1);
    expect(problems[0].message).to.match(
      /requires type 'fs-directory', but resource 'acme\/app-repo' has type git-checkout/,
    );
  });

  it('accepts a static resource of a sub-type of the slot type', () => {
    const { problems } = check({
      name: 'c',
      resourceType: 'git-checkout',
      binding: 'STATIC',
      staticResource: 'local/shared-config',
    });
    expect(problems).to.deep.equal([]);
  });

  it('reports every problem at once, in slot order', () => {
    const { problems, slots } = check(
      { name: 'a', resourceType: 'nope' },
      { name: 'a', resourceType: 'fs-directory', binding: 'STATIC' },
      { name: 'b', resourceType: 'fs-directory', binding: 'STATIC', staticResource: 'misc/thing' },
    );
    expect(problems.map((p) => [p.slot, p.field])).to.deep.equal([
      ['a', 'resourceType'],
      ['a', 'name'],
      ['a', 'staticResource'],
      ['b', 'staticResource'],
    ]);
    expect(slots).to.deep.equal([]);
  });
});
