/**
 * How many cases a property test generates, and from which seed: a few good
 * cases by default, so that `npm test` stays quick, and as many as asked for a
 * long run. Both are in each test's title, so the output says what ran.
 *
 * - PROPERTY_RUNS=<n>: every property test runs n times its default number of
 *   cases (e.g. PROPERTY_RUNS=10 for a long run; fractions allowed, at least 1 case).
 * - PROPERTY_SEED=<n>: another seed than each test's own, to explore other cases.
 */
export interface PropertyCases {
  readonly numRuns: number;
  readonly seed: number;
  /** `4 cases, seed 5`: for the test's title. */
  readonly label: string;
}

/** A property test's cases: `normal` of them from its own `seed`, scaled and reseeded by the environment. */
export function propertyCases(normal: number, seed: number): PropertyCases {
  const scale = positiveNumber('PROPERTY_RUNS', process.env.PROPERTY_RUNS) ?? 1;
  const numRuns = Math.max(1, Math.round(normal * scale));
  const given = positiveNumber('PROPERTY_SEED', process.env.PROPERTY_SEED);
  const chosen = given === undefined ? seed : Math.floor(given);
  return { numRuns, seed: chosen, label: `${numRuns} case${numRuns === 1 ? '' : 's'}, seed ${chosen}` };
}

function positiveNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new Error(`${name} must be a positive number (got "${value}")`);
  return number;
}
