import { expect } from 'chai';
import { getOperationAST, parse, print, type DocumentNode, type GraphQLSchema } from 'graphql';
import { buildRegistrySchema } from '../../src/engine/executable-schema';
import { PageAssembly, type AssemblyStats } from '../../src/engine/page-assembly';

/** Which queries are answered from kept parts (see src/engine/page-assembly.ts), and what is compiled for them. */
describe('page assembly: which queries qualify', () => {
  let schema: GraphQLSchema;
  before(async () => {
    schema = await buildRegistrySchema();
  });

  const stats = (): AssemblyStats => ({ assembled: 0, partsUsed: 0, partsComputed: 0, declined: 0 });
  const host = {
    parts: undefined as never,
    sessionOf: () => undefined as never,
    withSession: () => undefined,
    audienceOf: () => 'r-',
  };
  /** The plan of a query, and the documents it compiled (skeleton first, then each connection's part). */
  function plan(query: string) {
    const compiled: string[] = [];
    const document = parse(query);
    const assembly = PageAssembly.plan(
      schema,
      document,
      getOperationAST(document)!,
      (derived: DocumentNode) => {
        compiled.push(print(derived));
        return { query: () => ({ data: null }) };
      },
      host,
      stats(),
    );
    return { assembly, compiled };
  }

  const DASHBOARD = `query Dashboard($first: Int, $after: String) { tools(first: $first, after: $after) {
    totalCount edges { cursor node { id name resourceSlots { name resourceType { name ancestors { name } } staticResource { name } } } }
    pageInfo { hasNextPage endCursor } } }`;

  it('assembles a dashboard page: the skeleton asks each node for its id, the part is the node found again by id', () => {
    const { assembly, compiled } = plan(DASHBOARD);
    expect(assembly?.connections).to.deep.equal(['tools']);
    expect(compiled).to.have.length(2);
    const [skeleton, part] = compiled;
    expect(skeleton).to.include('edges {\n      cursor\n      node {\n        id\n      }\n    }');
    expect(skeleton).to.include('totalCount');
    expect(skeleton).to.not.include('resourceSlots');
    // Only the variables the item's selection uses, and no operation name: every query showing tools so shares them.
    expect(part).to.match(/^query \(\$__partRef: String!\) \{\n {2}__part: tool\(ref: \$__partRef\) \{/);
    expect(part).to.include('resourceSlots');
  });

  it('assembles every connection of items at the root, under their aliases, and keeps the fragments a part spreads', () => {
    const { assembly, compiled } = plan(`query Two { a: tools(first: 5) { edges { n: node { ...T } } }
      resources(first: 5) { edges { node { name type { name } } } } __typename }
      fragment T on Tool { name resourceSlots { name } } fragment Unused on Tool { id }`);
    expect(assembly?.connections).to.deep.equal(['a', 'resources']);
    expect(compiled).to.have.length(3);
    expect(compiled[1]).to.include('__part: tool(ref: $__partRef)');
    expect(compiled[1]).to.include('fragment T on Tool');
    expect(compiled[1]).to.not.include('Unused');
    expect(compiled[2]).to.include('__part: resource(ref: $__partRef)');
  });

  for (const [why, query] of [
    ['a node asked for its id and name alone (the page index holds them)', `{ tools { edges { node { id name } } } }`],
    [
      'a directive on the way to the node',
      `query($x: Boolean!) { tools { edges @include(if: $x) { node { description } } } }`,
    ],
    [
      'a fragment on the way to the node',
      `{ tools { ...E } } fragment E on ToolConnection { edges { node { description } } }`,
    ],
    ['two edges fields', `{ tools { edges { node { description } } e: edges { cursor } } }`],
    ['two node fields', `{ tools { edges { node { description } n: node { name } } } }`],
    ['a response key twice at the root', `{ tools { totalCount } tools { edges { node { description } } } }`],
    [
      'the part variable declared by the query',
      `query($__partRef: String) { tools { edges { node { description } } } }`,
    ],
    ['no connection at the root', `{ resolveBindings(tool: "t", project: "p") { slotName } }`],
    [
      'a connection below the root',
      `{ resourceType(ref: "t") { compatibleResources { edges { node { type { name } } } } } }`,
    ],
    ['the change log, whose entries no root field finds by ref', `{ changes { edges { node { summary } } } }`],
    ['a mutation', `mutation { createProject(input: { name: "p" }) { project { id } } }`],
  ] as const) {
    it(`does not assemble ${why}`, () => {
      expect(plan(query).assembly).to.equal(null);
    });
  }
});
