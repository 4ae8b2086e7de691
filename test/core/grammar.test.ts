import { expect } from 'chai';
import {
  checkDescription,
  checkPageSize,
  checkRef,
  checkResourceName,
  checkSearchText,
  checkSlotName,
  checkTypeName,
  isIdRef,
  LIMITS,
  shortNameOf,
} from '../../src/core/grammar';

describe('grammar', () => {
  describe('checkTypeName', () => {
    it('accepts lowercase letters, digits and "-" starting with a letter', () => {
      expect(checkTypeName('git-checkout')).to.equal(null);
      expect(checkTypeName('fs2')).to.equal(null);
    });
    it('refuses uppercase, a leading digit or dash, and other characters', () => {
      for (const bad of ['Git', '1fs', '-fs', 'fs_dir', 'fs dir', 'fs/dir', 'é'])
        expect(checkTypeName(bad), bad).to.be.a('string');
    });
    it('refuses the empty name', () => {
      expect(checkTypeName('')).to.match(/empty/);
    });
    it('allows exactly 100 characters and refuses 101', () => {
      expect(checkTypeName('a'.repeat(LIMITS.typeName))).to.equal(null);
      expect(checkTypeName('a'.repeat(LIMITS.typeName + 1))).to.match(/at most 100/);
    });
  });

  describe('checkResourceName', () => {
    it('accepts one or more "/"-separated segments of [A-Za-z0-9._-]', () => {
      for (const ok of ['local/shared-config', 'acme', 'A.b_c-d/E/f.g', 'x/y/z'])
        expect(checkResourceName(ok), ok).to.equal(null);
    });
    it('refuses empty segments, spaces and other characters', () => {
      for (const bad of ['/x', 'x/', 'x//y', 'x y', 'x:y', 'ä/b', ''])
        expect(checkResourceName(bad), bad).to.be.a('string');
    });
    it('allows exactly 200 characters and refuses 201', () => {
      expect(checkResourceName('a'.repeat(LIMITS.resourceName))).to.equal(null);
      expect(checkResourceName('a'.repeat(LIMITS.resourceName + 1))).to.match(/at most 200/);
    });
    it('refuses a name with the shape of an id, so refs cannot clash', () => {
      expect(checkResourceName('01ARZ3NDEKTSV4RRFFQ69G5FAV')).to.match(/shape of an id/);
      expect(checkResourceName('01arz3ndektsv4rrffq69g5fav')).to.equal(null);
    });
  });

  describe('checkSlotName', () => {
    it('accepts ^[a-z_][a-z0-9_-]*$', () => {
      for (const ok of ['repo', '_x', 'config_dir', 'a-1']) expect(checkSlotName(ok), ok).to.equal(null);
    });
    it('refuses uppercase, a leading digit or dash', () => {
      for (const bad of ['Repo', '1x', '-x', 'a.b', '']) expect(checkSlotName(bad), bad).to.be.a('string');
    });
    it('allows exactly 64 characters and refuses 65', () => {
      expect(checkSlotName('a'.repeat(64))).to.equal(null);
      expect(checkSlotName('a'.repeat(65))).to.match(/at most 64/);
    });
  });

  describe('isIdRef', () => {
    it('reads 26 uppercase Crockford base32 characters as an id', () => {
      expect(isIdRef('01ARZ3NDEKTSV4RRFFQ69G5FAV')).to.equal(true);
    });
    it('reads anything else as a name', () => {
      expect(isIdRef('01arz3ndektsv4rrffq69g5fav')).to.equal(false);
      expect(isIdRef('01ARZ3NDEKTSV4RRFFQ69G5FA')).to.equal(false);
      expect(isIdRef('01ARZ3NDEKTSV4RRFFQ69G5FAI')).to.equal(false); // I is not Crockford
      expect(isIdRef('local/shared-config')).to.equal(false);
    });
  });

  describe('shortNameOf', () => {
    it('is the last segment', () => {
      expect(shortNameOf('local/shared-config')).to.equal('shared-config');
      expect(shortNameOf('repo')).to.equal('repo');
      expect(shortNameOf('a/b/c')).to.equal('c');
    });
  });

  describe('checkRef, checkDescription, checkSearchText', () => {
    it('refuses control characters but allows tabs and line breaks in descriptions', () => {
      expect(checkDescription('line one\n\tline two\r\n')).to.equal(null);
      expect(checkDescription('nul\u0000')).to.be.a('string');
      expect(checkRef('a\u0001b')).to.be.a('string');
      expect(checkSearchText('a\u007fb')).to.be.a('string');
    });
    it('refuses lone surrogates, which no database stores as text', () => {
      expect(checkDescription('\ud800')).to.match(/Unicode/);
      expect(checkDescription('emoji 🚀')).to.equal(null);
    });
    it('caps lengths', () => {
      expect(checkRef('')).to.match(/empty/);
      expect(checkRef('x'.repeat(201))).to.match(/at most/);
      expect(checkDescription('x'.repeat(LIMITS.description + 1))).to.match(/at most/);
    });
  });

  describe('checkPageSize', () => {
    it('allows 1 to 100', () => {
      expect(checkPageSize(1)).to.equal(null);
      expect(checkPageSize(100)).to.equal(null);
    });
    it('refuses 0, 101 and negatives', () => {
      for (const bad of [0, 101, -1]) expect(checkPageSize(bad), String(bad)).to.be.a('string');
    });
  });
});
