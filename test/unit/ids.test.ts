// Ids are ULIDs, increasing within the process, with their random part drawn from a pool of random bytes.
import { expect } from 'chai';
import { decodeTime, isValid } from 'ulid';
import { newId } from '../../src/application/ids';

describe('newId', () => {
  it('gives valid, unique, increasing ULIDs stamped with the time, past many refills of its random pool', () => {
    const started = Date.now();
    const ids = Array.from({ length: 20_000 }, () => newId());
    for (const id of ids.slice(0, 100)) expect(isValid(id), id).to.equal(true);
    expect(new Set(ids).size).to.equal(ids.length);
    expect([...ids].sort()).to.deep.equal(ids);
    expect(decodeTime(ids[0])).to.be.within(started - 1, Date.now());
  });

  it('draws a fresh random part each millisecond, spread over the whole alphabet', async () => {
    const randomParts = new Set<string>();
    const characters = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const id = newId();
      randomParts.add(id.slice(10));
      for (const c of id.slice(10)) characters.add(c);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(randomParts.size).to.equal(40);
    // 640 characters from 32: every one of them shows up (the chance that one is missing is about 32 × e^-20).
    expect(characters.size).to.equal(32);
  });
});
