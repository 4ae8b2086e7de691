import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const REGISTER = `mutation($i: RegisterToolInput!) { registerTool(input: $i) { tool {
  id name description resourceSlots { name access binding required resourceType { name } staticResource { name } }
} } }`;

describeEachBackend('tools', (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(backend);
    const r = registryOf(server);
    await r.type('git-checkout');
    await r.type('fs-directory', ['git-checkout']);
    await r.type('other');
    await r.resource('local/shared-config', 'fs-directory');
    await r.resource('acme/app-repo', 'git-checkout');
  });
  after(() => server.close());

  const toolCount = async () => (await server.data(`{ tools { totalCount } }`)).tools.totalCount as number;

  it("registers the seed's Mixed Bindings tool with its slots in order", async () => {
    const d = await server.data(REGISTER, {
      i: {
        name: 'demo/mixed',
        description: 'mixed',
        resourceSlots: [
          { name: 'repo', resourceType: 'git-checkout', access: 'READ_WRITE', binding: 'CONTEXTUAL' },
          {
            name: 'config',
            resourceType: 'fs-directory',
            access: 'READ_ONLY',
            binding: 'STATIC',
            staticResource: 'local/shared-config',
          },
          { name: 'output', resourceType: 'fs-directory', access: 'WRITE_ONLY', binding: 'PARAMETER' },
        ],
      },
    });
    expect(d.registerTool.tool.id).to.match(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(d.registerTool.tool.resourceSlots).to.deep.equal([
      {
        name: 'repo',
        access: 'READ_WRITE',
        binding: 'CONTEXTUAL',
        required: true,
        resourceType: { name: 'git-checkout' },
        staticResource: null,
      },
      {
        name: 'config',
        access: 'READ_ONLY',
        binding: 'STATIC',
        required: true,
        resourceType: { name: 'fs-directory' },
        staticResource: { name: 'local/shared-config' },
      },
      {
        name: 'output',
        access: 'WRITE_ONLY',
        binding: 'PARAMETER',
        required: true,
        resourceType: { name: 'fs-directory' },
        staticResource: null,
      },
    ]);
  });

  it('defaults access to READ_ONLY, binding to CONTEXTUAL and required to true', async () => {
    const d = await server.data(REGISTER, {
      i: { name: 'defaults', resourceSlots: [{ name: 'repo', resourceType: 'git-checkout' }] },
    });
    expect(d.registerTool.tool.resourceSlots[0]).to.deep.include({
      access: 'READ_ONLY',
      binding: 'CONTEXTUAL',
      required: true,
    });
  });

  it('reports every static problem at once as TOOL_VALIDATION_FAILED, and stores nothing', async () => {
    const before = await toolCount();
    const { body } = await server.gql(REGISTER, {
      i: {
        name: 'broken',
        resourceSlots: [
          { name: 'a', resourceType: 'no-such-type' },
          { name: 'a', resourceType: 'git-checkout' },
          { name: 'b', resourceType: 'fs-directory', binding: 'STATIC' },
          { name: 'c', resourceType: 'fs-directory', binding: 'PARAMETER', staticResource: 'local/shared-config' },
          { name: 'd', resourceType: 'fs-directory', binding: 'STATIC', staticResource: 'no/such' },
          { name: 'e', resourceType: 'fs-directory', binding: 'STATIC', staticResource: 'acme/app-repo' },
        ],
      },
    });
    expect(body.data).to.equal(null);
    expect(body.errors).to.have.length(1);
    expect(body.errors?.[0].extensions?.code).to.equal('TOOL_VALIDATION_FAILED');
    expect(body.errors?.[0].extensions?.problems.map((p: any) => [p.slot, p.field])).to.deep.equal([
      ['a', 'resourceType'],
      ['a', 'name'],
      ['b', 'staticResource'],
      ['c', 'staticResource'],
      ['d', 'staticResource'],
      ['e', 'staticResource'],
    ]);
    for (const p of body.errors![0].extensions!.problems) expect(p.message).to.be.a('string').and.not.equal('');
    expect(await toolCount()).to.equal(before);
    expect((await server.data(`{ tool(ref: "broken") { id } }`)).tool).to.equal(null);
  });

  it('accepts a static resource of a sub-type of the slot type', async () => {
    const d = await server.data(REGISTER, {
      i: {
        name: 'sub-static',
        resourceSlots: [
          { name: 'r', resourceType: 'git-checkout', binding: 'STATIC', staticResource: 'local/shared-config' },
        ],
      },
    });
    expect(d.registerTool.tool.resourceSlots[0].staticResource).to.deep.equal({ name: 'local/shared-config' });
  });

  it('refuses a duplicate tool name with CONFLICT', async () => {
    const { body } = await server.gql(REGISTER, { i: { name: 'demo/mixed', resourceSlots: [] } });
    expect(body.errors?.[0].extensions?.code).to.equal('CONFLICT');
    expect(body.errors?.[0].message).to.equal("a tool named 'demo/mixed' already exists");
  });

  it('checks grammar first, then the static checks, then the duplicate name', async () => {
    const grammar = await server.gql(REGISTER, {
      i: { name: 'demo/mixed', resourceSlots: [{ name: 'Bad', resourceType: 'no-such-type' }] },
    });
    expect(grammar.body.errors?.[0].extensions?.code).to.equal('BAD_USER_INPUT');
    expect(grammar.body.errors?.[0].extensions?.problems).to.deep.equal([
      {
        field: 'input.resourceSlots[0].name',
        message:
          'input.resourceSlots[0].name must be lowercase letters, digits, "_" and "-", starting with a letter or "_"',
      },
    ]);
    const statics = await server.gql(REGISTER, {
      i: { name: 'demo/mixed', resourceSlots: [{ name: 'x', resourceType: 'no-such-type' }] },
    });
    expect(statics.body.errors?.[0].extensions?.code).to.equal('TOOL_VALIDATION_FAILED');
  });

  it('names every bad field of the input in BAD_USER_INPUT, without echoing the input', async () => {
    const { body } = await server.gql(REGISTER, {
      i: {
        name: 'bad name',
        description: 'x\u0000',
        resourceSlots: [
          { name: 'ok', resourceType: 'git-checkout' },
          { name: '9bad', resourceType: '' },
        ],
      },
    });
    expect(body.errors?.[0].extensions?.code).to.equal('BAD_USER_INPUT');
    expect(body.errors?.[0].extensions?.problems.map((p: any) => p.field)).to.deep.equal([
      'input.name',
      'input.description',
      'input.resourceSlots[1].name',
      'input.resourceSlots[1].resourceType',
    ]);
    expect(JSON.stringify(body)).to.not.include('validationErrors');
    expect(JSON.stringify(body.errors?.[0].extensions)).to.not.include('"target"');
  });

  it('caps the number of slots at 64', async () => {
    const slots = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ name: `s${i}`, resourceType: 'git-checkout', required: false }));
    const { body } = await server.gql(REGISTER, { i: { name: 'too-many', resourceSlots: slots(65) } });
    expect(body.errors?.[0].extensions?.problems).to.deep.equal([
      { field: 'input.resourceSlots', message: 'input.resourceSlots must have at most 64 entries' },
    ]);
    expect((await server.gql(REGISTER, { i: { name: 'just-enough', resourceSlots: slots(64) } })).body.errors).to.equal(
      undefined,
    );
  });

  it('refuses a tool name with the shape of an id', async () => {
    const { body } = await server.gql(REGISTER, { i: { name: '01ARZ3NDEKTSV4RRFFQ69G5FAV', resourceSlots: [] } });
    expect(body.errors?.[0].extensions?.code).to.equal('BAD_USER_INPUT');
  });

  it('finds a tool by id or by name', async () => {
    const id = (await server.data(`{ tool(ref: "demo/mixed") { id } }`)).tool.id;
    expect((await server.data(`query($r: String!) { tool(ref: $r) { name } }`, { r: id })).tool.name).to.equal(
      'demo/mixed',
    );
  });

  it('unregisters a tool and its slots; an unknown ref is NOT_FOUND', async () => {
    const { id } = await registryOf(server).tool('to-remove', [{ name: 'r', resourceType: 'git-checkout' }]);
    expect(
      (await server.data(`mutation { unregisterTool(ref: "to-remove") { deletedId } }`)).unregisterTool,
    ).to.deep.equal({
      deletedId: id,
    });
    expect((await server.data(`{ tool(ref: "to-remove") { id } }`)).tool).to.equal(null);
    const { body } = await server.gql(`mutation { unregisterTool(ref: "to-remove") { deletedId } }`);
    expect(body.errors?.[0].extensions?.code).to.equal('NOT_FOUND');
    await registryOf(server).tool('to-remove', [{ name: 'other', resourceType: 'other' }]);
    const again = await server.data(`{ tool(ref: "to-remove") { resourceSlots { name } } }`);
    expect(again.tool.resourceSlots).to.deep.equal([{ name: 'other' }]);
  });

  describe('validateTool (dry run)', () => {
    const VALIDATE = `query($i: RegisterToolInput!) { validateTool(input: $i) { slot field message } }`;

    it('returns no problems for a good tool, and stores nothing', async () => {
      const d = await server.data(VALIDATE, {
        i: { name: 'dry/ok', resourceSlots: [{ name: 'repo', resourceType: 'git-checkout' }] },
      });
      expect(d.validateTool).to.deep.equal([]);
      expect((await server.data(`{ tool(ref: "dry/ok") { id } }`)).tool).to.equal(null);
    });

    it("returns every problem registerTool's static checks find", async () => {
      const d = await server.data(VALIDATE, {
        i: {
          name: 'dry/bad',
          resourceSlots: [
            { name: 'a', resourceType: 'nope' },
            { name: 'b', resourceType: 'fs-directory', binding: 'STATIC', staticResource: 'acme/app-repo' },
          ],
        },
      });
      expect(d.validateTool.map((p: any) => [p.slot, p.field])).to.deep.equal([
        ['a', 'resourceType'],
        ['b', 'staticResource'],
      ]);
    });

    it('still refuses bad grammar with BAD_USER_INPUT', async () => {
      const { body } = await server.gql(VALIDATE, { i: { name: 'bad name', resourceSlots: [] } });
      expect(body.errors?.[0].extensions?.code).to.equal('BAD_USER_INPUT');
    });
  });

  describe('updateTool', () => {
    const UPDATE = `mutation($i: UpdateToolInput!) { updateTool(input: $i) { tool { id name description resourceSlots { name binding } } } }`;

    it('replaces the description and every slot, keeping the id', async () => {
      const original = await registryOf(server).tool('upd/tool', [
        { name: 'a', resourceType: 'git-checkout' },
        { name: 'b', resourceType: 'git-checkout' },
      ]);
      const d = await server.data(UPDATE, {
        i: {
          name: 'upd/tool',
          description: 'v2',
          resourceSlots: [{ name: 'c', resourceType: 'fs-directory', binding: 'PARAMETER' }],
        },
      });
      expect(d.updateTool.tool).to.deep.equal({
        id: original.id,
        name: 'upd/tool',
        description: 'v2',
        resourceSlots: [{ name: 'c', binding: 'PARAMETER' }],
      });
      const read = await server.data(`{ tool(ref: "upd/tool") { resourceSlots { name } } }`);
      expect(read.tool.resourceSlots).to.deep.equal([{ name: 'c' }]);
    });

    it('is NOT_FOUND for a tool that does not exist', async () => {
      const { body } = await server.gql(UPDATE, { i: { name: 'upd/none', resourceSlots: [] } });
      expect(body.errors?.[0].extensions?.code).to.equal('NOT_FOUND');
    });

    it('runs the same static checks, and a rejected update changes nothing', async () => {
      const { body } = await server.gql(UPDATE, {
        i: { name: 'upd/tool', description: 'v3', resourceSlots: [{ name: 'x', resourceType: 'nope' }] },
      });
      expect(body.errors?.[0].extensions?.code).to.equal('TOOL_VALIDATION_FAILED');
      const read = await server.data(`{ tool(ref: "upd/tool") { description resourceSlots { name } } }`);
      expect(read.tool).to.deep.equal({ description: 'v2', resourceSlots: [{ name: 'c' }] });
    });
  });
});
