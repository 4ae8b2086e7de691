// The metrics' own pieces: the histogram counted in plain numbers writes exactly what prom-client's Histogram
// writes for the same values, and the bounded label.
import { expect } from 'chai';
import { Histogram, Registry } from 'prom-client';
import { BoundedLabel, PlainHistogram } from '../../src/observability/metrics';

describe('metrics: PlainHistogram', () => {
  const BUCKETS = [0.001, 0.01, 0.1, 1];
  const VALUES = [0.0005, 0.001, 0.002, 0.05, 0.05, 0.7, 3, 12.5, 0];

  it('writes the same exposition as prom-client’s Histogram for the same values', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const plain = new PlainHistogram('x_seconds', 'How long x took', BUCKETS, [ours]);
    const reference = new Histogram({
      name: 'x_seconds',
      help: 'How long x took',
      buckets: BUCKETS,
      registers: [theirs],
    });
    for (const value of VALUES) {
      plain.observe(value);
      reference.observe(value);
    }
    const text = await ours.metrics();
    expect(text).to.equal(await theirs.metrics());
    expect(text).to.include('x_seconds_bucket{le="0.01"} 4');
    expect(text).to.include('x_seconds_bucket{le="+Inf"} 9');
    expect(text).to.include('x_seconds_count 9');
  });

  it('counts nothing for a value that is not a finite number, and starts again on reset', async () => {
    const registry = new Registry();
    const plain = new PlainHistogram('y_seconds', 'y', BUCKETS, [registry]);
    plain.observe(Number.NaN);
    plain.observe(Number.POSITIVE_INFINITY);
    plain.observe(0.5);
    expect(await registry.metrics()).to.include('y_seconds_count 1');
    registry.resetMetrics();
    expect(await registry.metrics()).to.include('y_seconds_count 0');
    expect(await registry.metrics()).to.include('y_seconds_bucket{le="1"} 0');
  });
});

describe('metrics: BoundedLabel', () => {
  it('keeps the first values it sees, then calls the rest other; names only', () => {
    const label = new BoundedLabel(2);
    expect(label.of(null)).to.equal('anonymous');
    expect(label.of('A')).to.equal('A');
    expect(label.of('not a name')).to.equal('other');
    expect(label.of('B')).to.equal('B');
    expect(label.of('C')).to.equal('other');
    expect(label.of('A')).to.equal('A');
  });
});
