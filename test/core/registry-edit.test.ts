import { expect } from 'chai';
import type { SlotDefinition } from '../../src/core/model';
import { changesNothing } from '../../src/core/registry-edit';

describe('changesNothing: an update that leaves its thing as it was is no edit', () => {
  const type = { id: 'T', name: 'vcs', description: null, parentIds: ['A', 'B'] };
  const resource = { id: 'R', name: 'x/src', shortName: 'src', typeId: 'T', description: 'd' };
  const project = { id: 'P', name: 'shop', description: null };
  const slot: SlotDefinition = {
    name: 'repo',
    typeId: 'T',
    access: 'READ_ONLY',
    binding: 'CONTEXTUAL',
    staticResourceId: null,
    required: true,
  };
  const tool = { id: 'X', name: 'acme/lint', description: null, slots: [slot] };
  const link = { project, resource, alias: null };

  it('holds for an update whose name, description, parents, type, alias and slots are all the same', () => {
    expect(changesNothing({ kind: 'RESOURCE_TYPE', before: type, after: { ...type, parentIds: ['A', 'B'] } })).to.equal(
      true,
    );
    expect(changesNothing({ kind: 'RESOURCE', before: resource, after: { ...resource } })).to.equal(true);
    expect(changesNothing({ kind: 'PROJECT', before: project, after: { ...project } })).to.equal(true);
    expect(changesNothing({ kind: 'LINK', before: link, after: { ...link } })).to.equal(true);
    expect(changesNothing({ kind: 'TOOL', before: tool, after: { ...tool, slots: [{ ...slot }] } })).to.equal(true);
  });

  it('fails for any one difference: a name in another case, a description, the parents in another order, a type, an alias, a slot', () => {
    expect(changesNothing({ kind: 'RESOURCE', before: resource, after: { ...resource, name: 'X/src' } })).to.equal(
      false,
    );
    expect(changesNothing({ kind: 'PROJECT', before: project, after: { ...project, description: '' } })).to.equal(
      false,
    );
    expect(changesNothing({ kind: 'RESOURCE_TYPE', before: type, after: { ...type, parentIds: ['B', 'A'] } })).to.equal(
      false,
    );
    expect(changesNothing({ kind: 'RESOURCE', before: resource, after: { ...resource, typeId: 'U' } })).to.equal(false);
    expect(changesNothing({ kind: 'LINK', before: link, after: { ...link, alias: 'src' } })).to.equal(false);
    expect(
      changesNothing({ kind: 'TOOL', before: tool, after: { ...tool, slots: [{ ...slot, required: false }] } }),
    ).to.equal(false);
  });

  it('never holds for a creation or a deletion', () => {
    expect(changesNothing({ kind: 'PROJECT', before: null, after: project })).to.equal(false);
    expect(changesNothing({ kind: 'LINK', before: link, after: null })).to.equal(false);
  });
});
