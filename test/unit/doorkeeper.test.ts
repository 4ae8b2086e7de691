import { expect } from 'chai';
import { Doorkeeper } from '../../src/engine/doorkeeper';

describe('Doorkeeper (which answers the response cache keeps)', () => {
  it('says a key is new the first time and seen every time after', () => {
    const keeper = new Doorkeeper();
    expect(keeper.seen('{ tools { totalCount } }')).to.equal(false);
    expect(keeper.seen('{ tools { totalCount } }')).to.equal(true);
    expect(keeper.seen('{ tools { totalCount } }')).to.equal(true);
    expect(keeper.seen('{ tools { edges { cursor } } }')).to.equal(false);
  });

  it('never forgets a key before it starts over, and mistakes few new keys for seen ones', () => {
    const keeper = new Doorkeeper(10_000, 1 << 17);
    const keys = Array.from({ length: 5_000 }, (_, i) => `["POST","",null,{"n":${i}},"query Q { a }"]`);
    for (const key of keys) keeper.seen(key);
    expect(
      keys.filter((key) => !keeper.seen(key)),
      'every key seen is known',
    ).to.deep.equal([]);
    let mistaken = 0;
    for (let i = 0; i < 4_000; i++) if (keeper.seen(`other-${i}`)) mistaken += 1;
    // 2^17 bits, 3 a key, 5,000 to 9,000 keys: a few per cent at most.
    expect(mistaken).to.be.below(4_000 * 0.08);
  });

  it('starts over empty after its capacity of new keys, so an old one counts as new again', () => {
    const keeper = new Doorkeeper(100);
    keeper.seen('old');
    for (let i = 0; i < 99; i++) keeper.seen(`filler-${i}`);
    expect(keeper.seen('old'), 'forgotten when the 100th new key started it over').to.equal(false);
    expect(keeper.seen('old')).to.equal(true);
  });
});
