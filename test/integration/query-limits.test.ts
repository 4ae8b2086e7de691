import { expect } from 'chai';
import { getIntrospectionQuery } from 'graphql';
import { sqlite } from '../support/backends';
import { startServer, type TestServer } from '../support/server';

/** `resourceType(ref) { parentTypes { … { name } } }`, exactly `depth` fields deep. */
function nested(depth: number): string {
  let selection = 'name';
  for (let i = 2; i < depth; i++) selection = `parentTypes { ${selection} }`;
  return `{ resourceType(ref: "fs-directory") { ${selection} } }`;
}

describe('hostile and oversized requests', () => {
  let server: TestServer;
  let resolverRuns = 0;
  before(async () => {
    server = await startServer(sqlite, { demoData: true });
  });
  after(() => server.close());

  /** Sends a request and proves nothing ran: no SQL statement was sent for it. */
  async function refused(query: string, variables?: Record<string, unknown>) {
    const before = server.statements();
    const result = await server.gql(query, variables);
    resolverRuns += server.statements() - before;
    expect(server.statements() - before, 'no resolver may run (no SQL)').to.equal(0);
    return result;
  }

  it('refuses a query deeper than 10 with 400, before any resolver runs', async () => {
    const { status, body } = await refused(nested(11));
    expect(status).to.equal(400);
    expect(body.errors?.[0].extensions).to.deep.include({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'DEPTH' });
    expect(body.errors?.[0].message).to.match(/depth limit of 10 exceeded/);
    expect((await server.gql(nested(10))).body.errors).to.equal(undefined);
  });

  it('counts fields only, not fragment spreads or inline fragments, in the depth', async () => {
    // Each parentTypes level in a named fragment of its own: 10 fields deep, through 8 fragments.
    const throughFragments = (depth: number) => {
      const fragments: string[] = [];
      for (let i = 2; i < depth; i++) {
        const inner = i === depth - 1 ? 'name' : `...F${i + 1}`;
        fragments.push(`fragment F${i} on ResourceType { parentTypes { ${inner} } }`);
      }
      return `{ resourceType(ref: "fs-directory") { name ...F2 } } ${fragments.join(' ')}`;
    };
    const throughInline = (depth: number) => {
      let selection = 'name';
      for (let i = 2; i < depth; i++) selection = `... on ResourceType { parentTypes { ${selection} } }`;
      return `{ resourceType(ref: "fs-directory") { ${selection} } }`;
    };
    // The issue's case: 7 levels written with three named fragments.
    const seven = `query { resourceType(ref: "fs-directory") { ...A } }
      fragment A on ResourceType { name parentTypes { ...B } }
      fragment B on ResourceType { parentTypes { parentTypes { ...C } } }
      fragment C on ResourceType { parentTypes { parentTypes { name } } }`;
    for (const query of [seven, throughFragments(10), throughInline(10), nested(10)]) {
      const { status, body } = await server.gql(query);
      expect(body.errors, query).to.equal(undefined);
      expect(status).to.equal(200);
    }
    for (const query of [throughFragments(11), throughInline(11)]) {
      const { status, body } = await refused(query);
      expect(status).to.equal(400);
      expect(body.errors?.[0].extensions).to.deep.include({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'DEPTH' });
      expect(body.errors?.[0].message).to.equal('Query depth limit of 10 exceeded, found 11.');
    }
  });

  it('refuses more than 15 aliases', async () => {
    const aliases = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `a${i}: tools { totalCount }`).join(' ')} }`;
    const { status, body } = await refused(aliases(16));
    expect(status).to.equal(400);
    expect(body.errors?.[0].extensions).to.deep.include({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'ALIASES' });
    expect((await server.gql(aliases(15))).body.errors).to.equal(undefined);
  });

  it('refuses __schema selected more than once a request (aliases, fragments), and allows one full introspection', async () => {
    const twice = [
      '{ a: __schema { queryType { name } } b: __schema { queryType { name } } }',
      '{ __schema { queryType { name } } ...F } fragment F on Query { s: __schema { types { name } } }',
      '{ ... on Query { __schema { queryType { name } } } x: __schema { mutationType { name } } }',
      `{ ${Array.from({ length: 15 }, (_, i) => `s${i}: __schema { types { name fields { name } } }`).join(' ')} }`,
    ];
    for (const query of twice) {
      const { status, body } = await refused(query);
      expect(status, query).to.equal(400);
      expect(body.errors?.[0].extensions).to.deep.include({
        code: 'GRAPHQL_VALIDATION_FAILED',
        limit: 'INTROSPECTION',
      });
      expect(body.errors?.[0].message).to.match(/^__schema may be selected at most once a request, found \d+/);
    }
    // One fragment spread twice is one selection (it merges).
    const { body } = await server.gql('{ ...F ...F } fragment F on Query { __schema { queryType { name } } }');
    expect(body.errors).to.equal(undefined);
    for (const query of [
      getIntrospectionQuery(),
      getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }),
    ]) {
      const { status, body } = await server.gql(query);
      expect(body.errors).to.equal(undefined);
      expect(status).to.equal(200);
      expect(body.data.__schema.types.length).to.be.greaterThan(50);
    }
  });

  it('refuses more than 50 directives', async () => {
    const directives = (n: number) => `{ tools { ${'totalCount @include(if: true) '.repeat(n)} } }`;
    const { status, body } = await refused(directives(51));
    expect(status).to.equal(400);
    expect(body.errors?.[0].extensions).to.deep.include({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'DIRECTIVES' });
    expect((await server.gql(directives(50))).body.errors).to.equal(undefined);
  });

  it('refuses more than 2,000 tokens as a 400 parse failure, not a 500', async () => {
    const many = `{ tools(filter: { nameContains: "x" }) { totalCount ${'__typename '.repeat(2000)} } }`;
    const { status, body } = await refused(many);
    expect(status).to.equal(400);
    expect(body.errors?.[0].extensions?.code).to.equal('GRAPHQL_PARSE_FAILED');
    expect(body.errors?.[0].message).to.match(/2000 tokens/);
  });

  it('refuses array-batched requests', async () => {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }]),
    });
    expect(response.status).to.equal(400);
    const body = (await response.json()) as any;
    expect(body.errors?.[0].extensions?.code ?? 'BAD_REQUEST').to.equal('BAD_REQUEST');
  });

  it('refuses a query asking for 100 × 100 × 100 nested connection nodes (cost limit), but not a dashboard page', async () => {
    // Depth 10, so only the cost limit can refuse it.
    const huge = `{ resourceTypes(first: 100) { edges { node { compatibleResources(first: 100) { edges { node { type { compatibleResources(first: 100) { edges { cursor } } } } } } } } } }`;
    const { status, body } = await refused(huge);
    expect(status).to.equal(400);
    expect(body.errors?.[0].extensions).to.deep.include({ code: 'QUERY_TOO_COMPLEX', limit: 50000 });
    expect(body.errors?.[0].extensions?.cost).to.be.greaterThan(1_000_000);
    const dashboard = `{ tools(first: 50) { edges { node { name resourceSlots { name access binding required resourceType { name ancestors { name } } staticResource { name } } } } } }`;
    expect((await server.gql(dashboard)).body.errors).to.equal(undefined);
  });

  it("costs each change-log entry's bindingChanges at their most (1,000 a mutation): 100 entries with them are refused, 2 are not", async () => {
    const withChanges = (first: number) =>
      `{ changes(first: ${first}) { edges { node { summary bindingChanges { toolName slotName } } } } }`;
    const { status, body } = await refused(withChanges(100));
    expect(status).to.equal(400);
    expect(body.errors?.[0].extensions).to.deep.include({ code: 'QUERY_TOO_COMPLEX', limit: 50000 });
    expect((await server.gql(withChanges(2))).body.errors).to.equal(undefined);
    // Without bindingChanges, 100 entries cost little.
    expect(
      (await server.gql(`{ changes(first: 100) { edges { node { summary impactCount } } } }`)).body.errors,
    ).to.equal(undefined);
  });

  it('counts the cost with the variables given', async () => {
    const query = `query($n: Int) { resourceTypes(first: $n) { edges { node { compatibleResources(first: $n) { edges { node { type { compatibleResources(first: $n) { totalCount } } } } } } } } }`;
    expect((await refused(query, { n: 100 })).body.errors?.[0].extensions?.code).to.equal('QUERY_TOO_COMPLEX');
    expect((await server.gql(query, { n: 3 })).body.errors).to.equal(undefined);
  });

  it('refuses a query too large to cost once its fragments are expanded, instead of letting it run uncosted', async () => {
    // Seven levels of fragments, each of the first six spreading the next five times: 5^6 = 15,625 selections to
    // cost, in about 20 tokens a level.
    const nested = (levels: number) =>
      `{ tools(first: 1) { edges { node { ...F0 } } } }\n` +
      Array.from({ length: levels }, (_, i) =>
        i + 1 < levels ? `fragment F${i} on Tool { ${`...F${i + 1} `.repeat(5)} }` : `fragment F${i} on Tool { name }`,
      ).join('\n');
    const { status, body } = await refused(nested(7));
    expect(status).to.equal(400);
    expect(body.errors?.[0].extensions?.code).to.equal('QUERY_TOO_COMPLEX');
    expect(body.errors?.[0].message).to.match(/more than 10000 selections/);
    // One level fewer (3,125 selections) is costed, and answered.
    expect((await server.gql(nested(6))).body.errors).to.equal(undefined);
  });

  it('refuses a connection page over 100', async () => {
    const { body } = await refused('{ tools(first: 101) { totalCount } }');
    expect(body.errors?.[0].extensions?.code).to.equal('BAD_USER_INPUT');
  });

  describe('page sizes and bounded lists, checked before execution', () => {
    /** Sends the request over POST or GET and proves nothing ran: 400, no data, no SQL (a sibling field would read). */
    async function refusedOver(method: 'POST' | 'GET', query: string, variables?: Record<string, unknown>) {
      const before = server.statements();
      let response: Response;
      if (method === 'POST') {
        response = await fetch(server.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query, variables }),
        });
      } else {
        const url = new URL(server.url);
        url.searchParams.set('query', query);
        if (variables) url.searchParams.set('variables', JSON.stringify(variables));
        response = await fetch(url, {
          headers: { 'apollo-require-preflight': 'true', accept: 'application/json', 'cache-control': 'no-cache' },
        });
      }
      const body = (await response.json()) as { data?: unknown; errors?: { message: string; extensions?: any }[] };
      resolverRuns += server.statements() - before;
      expect(server.statements() - before, `no resolver may run (no SQL): ${query}`).to.equal(0);
      expect(response.status, query).to.equal(400);
      expect(body).not.to.have.property('data');
      expect(body.errors).to.have.length(1);
      expect(body.errors?.[0].extensions?.code).to.equal('BAD_USER_INPUT');
      return body.errors![0];
    }

    // A sibling field that reads the registry: before the fix it ran, and sent SQL.
    const sibling = 'ok: projects(first: 1) { totalCount }';
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['first over 100', `{ ${sibling} tools(first: 101) { totalCount } }`, {}, 'first must be between 1 and 100'],
      ['first 0', `{ ${sibling} tools(first: 0) { totalCount } }`, {}, 'first must be between 1 and 100'],
      ['last under 1', `{ ${sibling} projects(last: -5) { totalCount } }`, {}, 'last must be between 1 and 100'],
      [
        'first from a variable',
        `query($n: Int) { ${sibling} resources(first: $n) { totalCount } }`,
        { n: 1000 },
        'first must be between 1 and 100',
      ],
      [
        'a variable default',
        `query($n: Int = 500) { ${sibling} resourceTypes(first: $n) { totalCount } }`,
        {},
        'first must be between 1 and 100',
      ],
      [
        'a nested connection, through a fragment',
        `{ ${sibling} resourceTypes(first: 2) { edges { node { ...T } } } } fragment T on ResourceType { compatibleResources(last: 101) { totalCount } }`,
        {},
        'last must be between 1 and 100',
      ],
      [
        'first and last together',
        `query($f: Int, $l: Int) { ${sibling} tools(first: $f, last: $l) { totalCount } }`,
        { f: 2, l: 3 },
        'pass first or last, not both: a page is taken from one end',
      ],
      [
        "the matrix's projectsFirst",
        `{ ${sibling} bindingMatrix(projectsFirst: 101, toolsFirst: 1) { cells { status } } }`,
        {},
        'projectsFirst must be between 1 and 100',
      ],
      [
        "the matrix's toolsLast from a variable",
        `query($n: Int) { ${sibling} bindingMatrix(projectsFirst: 1, toolsLast: $n) { cells { status } } }`,
        { n: 0 },
        'toolsLast must be between 1 and 100',
      ],
      [
        "the matrix's toolsFirst and toolsLast together",
        `{ ${sibling} bindingMatrix(toolsFirst: 1, toolsLast: 1) { cells { status } } }`,
        {},
        'pass toolsFirst or toolsLast, not both: a page is taken from one end',
      ],
      [
        'nodes with more than 100 ids',
        `query($ids: [ID!]!) { ${sibling} nodes(ids: $ids) { id } }`,
        { ids: Array.from({ length: 101 }, (_, i) => `id${i}`) },
        'at most 100 ids per request',
      ],
      [
        'explainBindings with more than 64 params',
        `query($p: [BindingParamInput!]) { ${sibling} explainBindings(tool: "x", project: "y", params: $p) { tool { name } } }`,
        { p: Array.from({ length: 65 }, (_, i) => ({ slot: `s${i}`, resource: 'r' })) },
        'params must have at most 64 entries',
      ],
    ];
    for (const [name, query, variables, message] of cases) {
      it(`refuses ${name} with 400 BAD_USER_INPUT, over POST and GET, before any resolver runs`, async () => {
        for (const method of ['POST', 'GET'] as const) {
          const error = await refusedOver(method, query, variables);
          expect(error.message).to.equal(message);
          expect(error.extensions?.problems).to.have.length(1);
        }
      });
    }

    it('lets page sizes from 1 to 100 through, from literals and variables', async () => {
      const query = `query($n: Int) { tools(first: 100) { totalCount } projects(last: 1) { totalCount } resources(first: $n) { totalCount } bindingMatrix(projectsFirst: 1, toolsLast: 100) { cells { status } } }`;
      const { status, body } = await server.gql(query, { n: 1 });
      expect(body.errors).to.equal(undefined);
      expect(status).to.equal(200);
    });
  });

  it('never ran a resolver for a refused request', () => {
    expect(resolverRuns).to.equal(0);
  });
});
