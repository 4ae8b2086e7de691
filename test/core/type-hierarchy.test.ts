import { expect } from 'chai';
import { hierarchyOf } from '../support/core-fixtures';

describe('TypeHierarchy', () => {
  // The seed's example: fs-directory lists git-checkout in its parentTypes.
  const seed = hierarchyOf({ 'fs-directory': ['git-checkout'] });

  describe('isCompatible', () => {
    it('accepts a resource whose type exactly matches the slot type', () => {
      expect(seed.isCompatible('git-checkout', 'git-checkout')).to.equal(true);
    });
    it("accepts a resource whose type lists the slot's type in parentTypes (the seed's direction)", () => {
      expect(seed.isCompatible('fs-directory', 'git-checkout')).to.equal(true);
    });
    it('refuses the reverse direction: a parent-type resource does not fill a sub-type slot', () => {
      expect(seed.isCompatible('git-checkout', 'fs-directory')).to.equal(false);
    });
    it('is transitive at any depth', () => {
      const deep = hierarchyOf({ b: ['a'], c: ['b'], d: ['c'], e: ['d'] });
      expect(deep.isCompatible('e', 'a')).to.equal(true);
      expect(deep.isCompatible('a', 'e')).to.equal(false);
    });
    it('follows every one of several parents', () => {
      const multi = hierarchyOf({ c: ['a', 'b'] });
      expect(multi.isCompatible('c', 'a')).to.equal(true);
      expect(multi.isCompatible('c', 'b')).to.equal(true);
      expect(multi.isCompatible('a', 'b')).to.equal(false);
    });
    it('refuses unrelated types and unknown ids', () => {
      const h = hierarchyOf({ b: ['a'], d: ['c'] });
      expect(h.isCompatible('b', 'c')).to.equal(false);
      expect(h.isCompatible('zzz', 'a')).to.equal(false);
    });
  });

  describe('typesFitting (the same rule, seen from the slot)', () => {
    it('is the slot type and every sub-type, at any depth', () => {
      const h = hierarchyOf({ d: ['b', 'c'], b: ['a'], c: ['a'], e: ['z'] });
      expect([...h.typesFitting('a')].sort()).to.deep.equal(['a', 'b', 'c', 'd']);
      expect([...h.typesFitting('d')]).to.deep.equal(['d']);
      expect([...h.typesFitting('unknown')]).to.deep.equal(['unknown']);
    });
    it('agrees with isCompatible for every pair of types, on a diamond, a chain, unrelated types and a cycle', () => {
      for (const parents of <Record<string, string[]>[]>[
        { 'fs-directory': ['git-checkout'] },
        { d: ['b', 'c'], b: ['a'], c: ['a'], a: ['root'], x: ['y'] },
        { b: ['a'], c: ['b'], d: ['c'], e: ['d'] },
        { a: ['b'], b: ['a'], c: ['a'] },
      ]) {
        const h = hierarchyOf(parents);
        const names = [...h.all().map((t) => t.id), 'unknown'];
        for (const slotType of names)
          for (const resourceType of names)
            expect(h.typesFitting(slotType).has(resourceType), `${resourceType} in a ${slotType} slot`).to.equal(
              h.isCompatible(resourceType, slotType),
            );
      }
    });
  });

  describe('slotTypesFilledBy (the same rule, seen from the resource, by index)', () => {
    it('gives each type a distinct index from 0, and -1 to an unknown type', () => {
      const h = hierarchyOf({ d: ['b', 'c'], b: ['a'], c: ['a'] });
      const indexes = h.all().map((t) => h.indexOf(t.id));
      expect([...indexes].sort()).to.deep.equal([0, 1, 2, 3]);
      expect(h.indexOf('unknown')).to.equal(-1);
    });
    it('agrees with isCompatible for every pair of types, on a diamond, a chain, unrelated types and a cycle', () => {
      for (const parents of <Record<string, string[]>[]>[
        { 'fs-directory': ['git-checkout'] },
        { d: ['b', 'c'], b: ['a'], c: ['a'], a: ['root'], x: ['y'] },
        { b: ['a'], c: ['b'], d: ['c'], e: ['d'] },
        { a: ['b'], b: ['a'], c: ['a'] },
      ]) {
        const h = hierarchyOf(parents);
        const ids = h.all().map((t) => t.id);
        for (const resourceType of ids) {
          const filled = h.slotTypesFilledBy(h.indexOf(resourceType));
          expect(filled[0], 'its own type first').to.equal(h.indexOf(resourceType));
          expect(new Set(filled).size, 'each once').to.equal(filled.length);
          for (const slotType of ids)
            expect(filled.includes(h.indexOf(slotType)), `${resourceType} in a ${slotType} slot`).to.equal(
              h.isCompatible(resourceType, slotType),
            );
        }
      }
    });
  });

  describe('ancestorsOf', () => {
    it('lists every type reachable through parentTypes, nearest first', () => {
      const h = hierarchyOf({ d: ['b', 'c'], b: ['a'], c: ['a'], a: ['root'] });
      expect(h.ancestorsOf('d').map((t) => t.name)).to.deep.equal(['b', 'c', 'a', 'root']);
    });
    it('lists each ancestor once in a diamond', () => {
      const h = hierarchyOf({ d: ['b', 'c'], b: ['a'], c: ['a'] });
      expect(h.ancestorsOf('d').map((t) => t.name)).to.deep.equal(['b', 'c', 'a']);
    });
    it('is empty for a root type', () => {
      expect(seed.ancestorsOf('git-checkout')).to.deep.equal([]);
    });
    it('terminates on a cycle in bad data', () => {
      const cyclic = hierarchyOf({ a: ['b'], b: ['a'] });
      expect(cyclic.ancestorsOf('a').map((t) => t.name)).to.deep.equal(['b']);
    });
  });

  describe('subtypesOf and descendantsOf', () => {
    const h = hierarchyOf({ b: ['a'], c: ['a'], d: ['b'] });
    it('subtypes are direct, ordered by name', () => {
      expect(h.subtypesOf('a').map((t) => t.name)).to.deep.equal(['b', 'c']);
    });
    it('descendants are every sub-type at any depth', () => {
      expect(h.descendantsOf('a').map((t) => t.name)).to.deep.equal(['b', 'c', 'd']);
      expect(h.descendantsOf('d')).to.deep.equal([]);
    });
  });

  describe('parentsOf and chainOf', () => {
    it('keeps declaration order of parents', () => {
      const h = hierarchyOf({ c: ['z', 'a'] });
      expect(h.parentsOf('c').map((t) => t.name)).to.deep.equal(['z', 'a']);
    });
    it('chains a type with its ancestors', () => {
      expect(seed.chainOf('fs-directory')).to.deep.equal(['fs-directory', 'git-checkout']);
    });
  });

  describe('wouldCreateCycle', () => {
    const h = hierarchyOf({ b: ['a'], c: ['b'] });
    it('refuses a type as its own parent', () => {
      expect(h.wouldCreateCycle('a', ['a'])).to.equal(true);
    });
    it('refuses a parent that already descends from the type', () => {
      expect(h.wouldCreateCycle('a', ['c'])).to.equal(true);
    });
    it('allows a parent that does not', () => {
      expect(h.wouldCreateCycle('c', ['a'])).to.equal(false);
    });
  });
});
