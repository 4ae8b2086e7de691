/** The SQL dialects the registry runs on. */
export type Dialect = 'sqlite' | 'postgres';

/** Runs one SQL statement and returns its rows. Statements use `?` placeholders in every dialect. */
export type QueryFn = <Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]) => Promise<Row[]>;

const postgresText = new Map<string, string>();

/** Rewrites `?` placeholders to PostgreSQL's `$1, $2, …` (our SQL never has `?` in literals). Memoized per statement. */
export function toDialect(dialect: Dialect, sql: string): string {
  if (dialect === 'sqlite') return sql;
  let text = postgresText.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    postgresText.set(sql, text);
  }
  return text;
}

/**
 * SQL fragments that differ between dialects, so that statements stay one text
 * per dialect whatever the number of values (and stay in the statement cache).
 */
export class SqlDialect {
  constructor(readonly dialect: Dialect) {}

  /** `column IN (…)` for a list bound as one parameter: JSON on SQLite, an array on PostgreSQL. */
  inList(column: string): string {
    return this.dialect === 'sqlite' ? `${column} IN (SELECT value FROM json_each(?))` : `${column} = ANY(?)`;
  }

  /**
   * For a LIMITed page whose list matches a large share of the rows: on
   * SQLite, `inList` written so that no index on the column serves it
   * (`column || ''` is not the column), so the planner walks the index of the
   * ORDER BY instead and stops when the page is full; SQLite has no
   * statistics here (no ANALYZE) and would otherwise read every match by the
   * column's index and sort them. PostgreSQL's planner has statistics and
   * chooses for itself: plain `inList`.
   */
  inListUnindexed(column: string): string {
    return this.dialect === 'sqlite' ? this.inList(`(${column} || '')`) : this.inList(column);
  }

  /** The bound value for `inList`. */
  listParam(values: readonly string[]): unknown {
    return this.dialect === 'sqlite' ? JSON.stringify(values) : values;
  }

  /** Case-insensitive substring match with `LIKE … ESCAPE`; the value comes from `containsParam`. */
  containsIgnoringCase(column: string): string {
    return `LOWER(${column}) LIKE ? ESCAPE '\\'`;
  }

  /** The bound pattern for `containsIgnoringCase`: wildcards in the text match literally. */
  containsParam(text: string): string {
    return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  }

  /** A CTE `name(a, b)` holding the given pairs, bound as parameters: JSON on SQLite, two arrays on PostgreSQL. */
  pairsTable(
    name: string,
    a: string,
    b: string,
    pairs: readonly (readonly [string, string])[],
  ): { cte: string; params: unknown[] } {
    if (this.dialect === 'sqlite') {
      return {
        cte: `${name}(${a}, ${b}) AS (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))`,
        params: [JSON.stringify(pairs)],
      };
    }
    return {
      cte: `${name}(${a}, ${b}) AS (SELECT * FROM unnest(?::text[], ?::text[]))`,
      params: [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
    };
  }

  /** A value as a statement parameter: a boolean as 0/1 on SQLite (it has no boolean type), anything else as it is. */
  param(value: unknown): unknown {
    return typeof value === 'boolean' && this.dialect === 'sqlite' ? (value ? 1 : 0) : value;
  }

  /** A boolean read back from a row (SQLite stores 0/1). */
  bool(value: unknown): boolean {
    return value === true || value === 1 || value === '1';
  }
}
