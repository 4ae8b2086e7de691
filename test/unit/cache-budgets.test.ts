// Every cache the server keeps is bounded by bytes and evicts the least recently used entries past its budget
// (the record cache's test is with the read session's; the response cache's with it).
import { expect } from 'chai';
import BetterSqlite3 from 'better-sqlite3';
import { parse } from 'graphql';
import { DocumentCache, documentBytes } from '../../src/engine/document-cache';
import { VerdictMemo } from '../../src/engine/admission';
import { statementCache } from '../../src/persistence/read-connection';

describe('cache budgets in bytes', () => {
  it("Apollo's document cache counts a document by its heap (about 80 bytes a character) and evicts past its budget", async () => {
    const query = (i: number) => `query Q${i} { tools(first: 50) { edges { node { name resourceSlots { name } } } } }`;
    const one = documentBytes(parse(query(0)));
    expect(one).to.be.greaterThan(80 * query(0).length);
    const cache = new DocumentCache(100 * one);
    for (let i = 0; i < 1000; i++) {
      await cache.set(`h${i}`, parse(query(i)));
      if (i % 10 === 0) await cache.get('h0');
    }
    expect(cache.bytes).to.be.at.most(100 * one);
    expect(cache.size).to.be.within(90, 100);
    expect(await cache.get('h0')).to.not.equal(undefined);
    expect(await cache.get('h1')).to.equal(undefined);
    expect(await cache.get('h999')).to.not.equal(undefined);
    expect(await cache.delete('h999')).to.equal(true);
  });

  it('the verdict memo (cost and arguments) evicts past its budget, counting keys at two bytes a character', () => {
    const memo = new VerdictMemo(64 * 1024);
    let computed = 0;
    const verdict = () => (computed++, { problems: [], cost: 1 });
    for (let i = 0; i < 2000; i++) {
      memo.of(`hash${i}\u0000\u0000${JSON.stringify({ filter: 'x'.repeat(100), i })}`, verdict);
    }
    expect(computed).to.equal(2000);
    expect(memo.bytes).to.be.at.most(64 * 1024);
    expect(memo.size).to.be.within(100, 250);
    memo.of(`hash1999\u0000\u0000${JSON.stringify({ filter: 'x'.repeat(100), i: 1999 })}`, verdict);
    expect(computed, 'a recent verdict is remembered').to.equal(2000);
  });

  it('the prepared-statement cache evicts past its budget', () => {
    const db = new BetterSqlite3(':memory:');
    try {
      const cache = statementCache(64 * 1024);
      for (let i = 0; i < 100; i++) {
        const sql = `SELECT ${Array.from({ length: i + 1 }, () => '?').join(', ')}`;
        cache.set(sql, db.prepare(sql));
      }
      expect(cache.calculatedSize).to.be.at.most(64 * 1024);
      expect(cache.size).to.be.within(10, 16);
      expect(cache.has('SELECT ?')).to.equal(false);
    } finally {
      db.close();
    }
  });
});
