import '../support/apollo-dev';
import { ApolloClient, HttpLink, InMemoryCache, gql, type DocumentNode, type TypePolicies } from '@apollo/client';
import { loadDevMessages, loadErrorMessages } from '@apollo/client/dev';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { sqlite } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

/** The typePolicies the README gives: the object literal in its InMemoryCache example. */
export function readmeTypePolicies(): TypePolicies {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const start = readme.indexOf('typePolicies: {');
  if (start < 0) throw new Error('README shows no typePolicies');
  let depth = 0;
  let end = readme.indexOf('{', start);
  do {
    if (readme[end] === '{') depth++;
    if (readme[end] === '}') depth--;
    end++;
  } while (depth > 0);
  const literal = readme.slice(readme.indexOf('{', start), end);
  return runInNewContext(`(${literal})`) as TypePolicies;
}
const README_TYPE_POLICIES = readmeTypePolicies();

/**
 * Apollo Client 4's normalized cache against the real server: after edits
 * that drop a slot, shrink a project's links or change what a value type
 * shows, the cache must not warn "Cache data may be lost".
 *
 * Apollo warns once per process for each Type.field, so the tests with the
 * README's policies run first, while every warning can still appear; the
 * last test shows the same edits warn without them.
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
  const VALUE_QUERIES: DocumentNode[] = [];

  const client = (typePolicies: TypePolicies = README_TYPE_POLICIES) =>
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

  it("merges the value types (BindingExplanation, ResourceUsage) with the README's typePolicies", async () => {
    const EXPLAIN_OK = gql`
      query ExplainOk {
        explainBindings(tool: "ac/tool", project: "ac") {
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
          project {
            id
          }
          slots {
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
            staticBindings {
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
    VALUE_QUERIES.push(EXPLAIN_OK, EXPLAIN_SLOTS, USAGE_STATIC, USAGE_LINKS);
  });

  it('without those typePolicies, the same kinds of edit warn (what the tests above would catch)', async () => {
    const apollo = client({});
    const TOOL = gql`
      query ToolAgain {
        tool(ref: "ac/tool") {
          id
          resourceSlots {
            id
            name
          }
        }
      }
    `;
    await server.data(
      `mutation { updateTool(input: { ref: "ac/tool", name: "ac/tool", resourceSlots: [{ name: "code", resourceType: "vcs" }, { name: "db", resourceType: "database" }] }) { dryRun } }`,
    );
    await apollo.query({ query: TOOL });
    await apollo.mutate({
      mutation: gql`
        mutation DropAgain {
          updateTool(
            input: { ref: "ac/tool", name: "ac/tool", resourceSlots: [{ name: "code", resourceType: "vcs" }] }
          ) {
            tool {
              id
              resourceSlots {
                id
                name
              }
            }
          }
        }
      `,
    });
    for (const query of VALUE_QUERIES) await apollo.query({ query, fetchPolicy: 'network-only' });
    const warned = dataLoss()
      .map((w) => /Cache data may be lost[\s\S]* (\w+)\.(\w+) /.exec(w)?.slice(1, 3).join('.'))
      .sort();
    expect(warned).to.deep.equal(['Query.explainBindings', 'Resource.usedBy', 'Tool.resourceSlots']);
  });
});
