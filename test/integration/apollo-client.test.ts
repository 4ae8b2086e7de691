import '../support/apollo-dev';
import { ApolloClient, HttpLink, InMemoryCache, gql, type TypePolicies } from '@apollo/client';
import { loadDevMessages, loadErrorMessages } from '@apollo/client/dev';
import { expect } from 'chai';
import { typePolicies as EXAMPLE_TYPE_POLICIES, registryClient } from '../../examples/clients/apollo';
import { sqlite } from '../support/backends';
import { buildSessionRegistry, runSession, type ClientUnderTest } from '../support/client-session';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

/** The session's requests through an Apollo client, each query from the network and written to the cache. */
function underTest(apollo: ApolloClient): ClientUnderTest {
  return {
    query: async (document, variables = {}) =>
      (await apollo.query({ query: gql(document), variables, fetchPolicy: 'network-only' })).data,
    mutate: async (document, variables = {}) => (await apollo.mutate({ mutation: gql(document), variables })).data,
  };
}

/**
 * Apollo Client 4's normalized cache against the real server: after edits
 * that drop a slot, shrink a project's links or change what a value type
 * shows, the cache must not warn "Cache data may be lost".
 *
 * Apollo warns once per process for each Type.field, so the tests with the
 * policies of docs/api.md (examples/clients/apollo.ts, the same module) run
 * first, while every warning can still appear; the last test shows what
 * warns without them.
 */
describe('Apollo Client cache', () => {
  let server: TestServer;
  const warnings: string[] = [];
  const originalWarn = console.warn;
  const originalError = console.error;

  before(async function () {
    this.timeout(30_000);
    loadDevMessages();
    loadErrorMessages();
    console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
    console.error = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
    server = await startServer(sqlite);
    const r = registryOf(server);
    await r.type('vcs');
    await r.type('database');
    await r.resource('ac/repo', 'vcs');
    await r.resource('ac/other', 'vcs');
    await r.resource('ac/db', 'database');
    await r.project('ac');
    await r.link('ac', 'ac/repo', 'code');
    await r.link('ac', 'ac/db');
    await r.link('ac', 'ac/other');
    await r.tool('ac/tool', [
      { name: 'code', resourceType: 'vcs' },
      { name: 'db', resourceType: 'database' },
      { name: 'static', resourceType: 'database', binding: 'STATIC', staticResource: 'ac/db' },
    ]);
  });
  after(async () => {
    console.warn = originalWarn;
    console.error = originalError;
    await server?.close();
  });
  beforeEach(() => void (warnings.length = 0));

  const client = (typePolicies: TypePolicies = EXAMPLE_TYPE_POLICIES) =>
    new ApolloClient({
      link: new HttpLink({ uri: server.url, fetch }),
      cache: new InMemoryCache({ typePolicies }),
    });
  const dataLoss = () => warnings.filter((w) => /Cache data may be lost/.test(w));

  it('keeps slots apart by id when updateTool drops one', async () => {
    const apollo = client();
    const TOOL = gql`
      query Tool {
        tool(ref: "ac/tool") {
          id
          name
          resourceSlots {
            id
            name
            required
            resourceType {
              id
              name
            }
          }
        }
      }
    `;
    await apollo.query({ query: TOOL });
    await apollo.mutate({
      mutation: gql`
        mutation Drop {
          updateTool(
            input: { ref: "ac/tool", name: "ac/tool", resourceSlots: [{ name: "code", resourceType: "vcs" }] }
          ) {
            tool {
              id
              resourceSlots {
                id
                name
                required
                resourceType {
                  id
                  name
                }
              }
            }
          }
        }
      `,
    });
    const cached = apollo.readQuery<any>({ query: TOOL });
    expect(cached.tool.resourceSlots.map((s: any) => s.name)).to.deep.equal(['code']);
    expect(dataLoss()).to.deep.equal([]);
    // The slot that stayed is the same cache entry as before.
    expect(Object.keys(apollo.cache.extract() as object)).to.include(`ResourceSlot:${cached.tool.resourceSlots[0].id}`);
  });

  it("keeps links apart by id when unlinkResource shrinks a project's list", async () => {
    const apollo = client();
    const LINKS = gql`
      query Links {
        project(ref: "ac") {
          id
          resources {
            id
            alias
            resource {
              id
              name
            }
          }
        }
      }
    `;
    await apollo.query({ query: LINKS });
    await apollo.mutate({
      mutation: gql`
        mutation Unlink {
          unlinkResource(input: { project: "ac", resource: "ac/other" }) {
            project {
              id
              resources {
                id
                alias
                resource {
                  id
                  name
                }
              }
            }
          }
        }
      `,
    });
    const cached = apollo.readQuery<any>({ query: LINKS });
    expect(cached.project.resources.map((l: any) => l.resource.name)).to.deep.equal(['ac/db', 'ac/repo']);
    expect(dataLoss()).to.deep.equal([]);
  });

  it('runs a realistic session (examples/clients/apollo.ts, as docs/api.md shows it) without one warning', async function () {
    this.timeout(60_000);
    const session = await startServer(sqlite);
    try {
      await buildSessionRegistry(session);
      const apollo = registryClient(session.url);
      const summary = await runSession(underTest(apollo));
      expect(warnings).to.deep.equal([]);
      // relayStylePagination answers the last page's query with every page fetched so far.
      expect(summary.lastToolsPage).to.deep.equal(['ac/lint', 'ac/tool', 'bc/tool']);
      // The value types are normalized by their ids: one explanation, one usage per resource, each change once.
      const keys = Object.keys(apollo.cache.extract() as object);
      expect(keys).to.include(`BindingExplanation:${summary.explanationId}`);
      expect(keys.filter((k) => k.startsWith('ResourceUsage:usage:'))).to.have.length.greaterThan(0);
      for (const id of summary.unlinkImpactIds) expect(summary.loggedChangeIds).to.include(id);
      expect(keys).to.include.members(summary.loggedChangeIds.map((id) => `BindingChange:${id}`));
    } finally {
      await session.close();
    }
  });

  it('merges what different queries select of explainBindings and usedBy', async () => {
    const EXPLAIN_OK = gql`
      query ExplainOk {
        explainBindings(tool: "ac/tool", project: "ac") {
          id
          ok
          tool {
            id
          }
        }
      }
    `;
    const EXPLAIN_SLOTS = gql`
      query ExplainSlots {
        explainBindings(tool: "ac/tool", project: "ac") {
          id
          project {
            id
          }
          slots {
            id
            slotName
            status
          }
        }
      }
    `;
    const USAGE_STATIC = gql`
      query UsageStatic {
        resource(ref: "ac/db") {
          id
          usedBy {
            id
            staticBindings {
              id
              slotName
              tool {
                id
              }
            }
          }
        }
      }
    `;
    const USAGE_LINKS = gql`
      query UsageLinks {
        resource(ref: "ac/db") {
          id
          usedBy {
            id
            links {
              id
              alias
            }
          }
        }
      }
    `;
    const apollo = client();
    for (const query of [EXPLAIN_OK, EXPLAIN_SLOTS, USAGE_STATIC, USAGE_LINKS]) {
      await apollo.query({ query, fetchPolicy: 'network-only' });
    }
    expect(dataLoss()).to.deep.equal([]);
    // Every selection is answered from the cache afterwards: the objects were merged, not replaced.
    for (const query of [EXPLAIN_OK, EXPLAIN_SLOTS, USAGE_STATIC, USAGE_LINKS]) {
      expect(apollo.readQuery({ query })).to.not.equal(null);
    }
  });

  it('without typePolicies, only lists an edit shrinks and the value types with no id warn; explainBindings and usedBy, which have ids now, do not', async function () {
    this.timeout(60_000);
    const session = await startServer(sqlite);
    try {
      await buildSessionRegistry(session);
      await runSession(
        underTest(new ApolloClient({ link: new HttpLink({ uri: session.url, fetch }), cache: new InMemoryCache() })),
      );
    } finally {
      await session.close();
    }
    const warned = dataLoss()
      .map((w) => /Cache data may be lost[\s\S]* (\w+)\.(\w+) /.exec(w)?.slice(1, 3).join('.'))
      .sort();
    expect(warned).to.not.include.members(['Query.explainBindings', 'Resource.usedBy']);
    expect(warned).to.deep.equal(WARNED_WITHOUT_POLICIES);
  });
});

/** What the session warns of with a default InMemoryCache: each a list an edit shrinks, or a value with no id. */
const WARNED_WITHOUT_POLICIES = [
  'BindingChange.after',
  'BindingExplanation.slots',
  'Project.resources',
  'Query.bindingMatrix',
  'Query.resolveBindings',
  'ResourceUsage.links',
  'ResourceUsage.staticBindings',
  'SlotExplanation.candidates',
  'Tool.resourceSlots',
];
