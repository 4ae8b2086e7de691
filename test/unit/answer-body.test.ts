import { expect } from 'chai';
import fc from 'fast-check';
import { LARGE_CHARS, answerBody, estimatedChars, piecewiseBody } from '../../src/engine/answer-body';

/** Apollo's serialization of a result with data and nothing else: what every body must equal, byte for byte. */
function apollo(data: unknown): Buffer {
  return Buffer.from(`${JSON.stringify({ data })}\n`, 'utf8');
}

describe('the body of an answer written in pieces (piecewiseBody)', () => {
  it('is JSON.stringify’s text of { data }, with a newline, for a binding matrix’s shape', () => {
    const cells = Array.from({ length: 1000 }, (_, i) => ({
      projectId: `p${i % 20}`,
      toolId: `t${i}`,
      status: i % 3 === 0 ? 'FAILED' : 'READY',
      failedSlots: i % 3 === 0 ? 1 : 0,
      reasons: i % 3 === 0 ? ['NO_MATCH'] : [],
    }));
    const data = { bindingMatrix: { projects: { nodes: [{ id: 'p0', name: 'org/p0' }] }, cells } };
    expect(piecewiseBody(data).equals(apollo(data))).to.equal(true);
  });

  it('leaves out what JSON.stringify leaves out, and writes what it writes for the rest', () => {
    const data = {
      '2': 'integer-like keys first',
      a: undefined,
      b: () => 1,
      c: [undefined, () => 1, Symbol('s'), null, -0, Number.NaN, Infinity],
      d: new Date(0),
      e: { toJSON: () => ({ replaced: true }) },
      f: 'é ☃ 𝄞 "quoted" \\ \u0000 \u2028',
      1: 'one',
      long: Array.from({ length: 200 }, (_, i) => (i % 7 === 0 ? undefined : { i, s: '☃'.repeat(i % 5) })),
    };
    expect(piecewiseBody(data).toString('utf8')).to.equal(apollo(data).toString('utf8'));
    expect(piecewiseBody(null).equals(apollo(null))).to.equal(true);
    expect(piecewiseBody(undefined).equals(apollo(undefined))).to.equal(true);
  });

  it('writes values nested past its walk whole, and lists of any length', () => {
    let deep: unknown = ['leaf'];
    for (let i = 0; i < 12; i++) deep = { [`level${i}`]: deep, list: Array.from({ length: 70 }, (_, k) => k) };
    for (const data of [deep, { empty: [] }, { exactly: Array(64).fill(1) }, { one: Array(65).fill('x') }])
      expect(piecewiseBody(data).equals(apollo(data))).to.equal(true);
  });

  it('equals Apollo’s serialization on generated JSON values', () => {
    const big = fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 60, maxLength: 300 });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({ maxDepth: 8 }), fc.dictionary(fc.string(), big), big), (data) => {
        expect(piecewiseBody(data).toString('utf8')).to.equal(apollo(data).toString('utf8'));
      }),
      { numRuns: 300 },
    );
  });
});

describe('the body of an answer (answerBody)', () => {
  const cells = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ projectId: `p${i % 20}`, toolId: `t${i}`, status: 'READY', reasons: [] }));

  it('writes a small answer with one JSON.stringify, as text, and a large one in pieces, as bytes', () => {
    const small = { resolveBindings: { complete: true, bindings: cells(4) } };
    expect(estimatedChars(small)).to.be.below(LARGE_CHARS);
    expect(answerBody(small)).to.be.a('string').and.equal(apollo(small).toString('utf8'));
    const matrix = { bindingMatrix: { cells: cells(1000) } };
    expect(estimatedChars(matrix)).to.be.at.least(LARGE_CHARS);
    const body = answerBody(matrix);
    expect(Buffer.isBuffer(body)).to.equal(true);
    expect((body as Buffer).equals(apollo(matrix))).to.equal(true);
  });

  it('estimates a size near the real one for lists of like items', () => {
    for (const data of [
      { cells: cells(10) },
      { cells: cells(1000) },
      { page: { nodes: cells(50), more: 'x'.repeat(99) } },
    ]) {
      const real = JSON.stringify(data).length;
      const estimate = estimatedChars(data);
      expect(estimate, JSON.stringify(data).slice(0, 40)).to.be.within(real * 0.7, real * 1.5);
    }
  });

  it('equals Apollo’s serialization whichever way it writes', () => {
    const big = fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 60, maxLength: 3000 });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({ maxDepth: 8 }), fc.dictionary(fc.string(), big), big), (data) => {
        expect(Buffer.from(answerBody(data)).toString('utf8')).to.equal(apollo(data).toString('utf8'));
      }),
      { numRuns: 100 },
    );
  });
});
