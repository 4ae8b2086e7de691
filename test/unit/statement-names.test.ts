// The PostgreSQL read path names its statements, so that each connection prepares one once and PostgreSQL plans
// it from its cache: one name per distinct text, up to a limit past which a text runs unnamed.
import { expect } from 'chai';
import { StatementNames } from '../../src/persistence/read-connection';

describe('statement names for the PostgreSQL read path', () => {
  it('gives a text the same name every time, another text another, and none past the limit', () => {
    const names = new StatementNames(2);
    const a = names.nameOf('SELECT 1');
    expect(a).to.be.a('string');
    expect(names.nameOf('SELECT 1')).to.equal(a);
    const b = names.nameOf('SELECT 2');
    expect(b).to.be.a('string').and.not.equal(a);
    expect(names.nameOf('SELECT 3')).to.equal(undefined);
    expect(names.nameOf('SELECT 1')).to.equal(a);
    expect(names.size).to.equal(2);
  });
});
