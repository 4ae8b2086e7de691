import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

const EXPLAIN = `query($tool: String!, $project: String!, $params: [BindingParamInput!]) {
  explainBindings(tool: $tool, project: $project, params: $params) {
    tool { name } project { name } ok
    slots { slotName bindingMode status reason how resource { name } message fix
      candidates { resource { name } ref alias accepted rejection typeChain message } }
  }
}`;

describeEachBackend('explainBindings', (backend) => {
  let server: TestServer;
  const explain = async (tool: string, project: string, params?: { slot: string; resource: string }[]) =>
    (await server.data(EXPLAIN, { tool, project, params })).explainBindings;

  before(async () => {
    server = await startServer(backend);
    const r = registryOf(server);
    await r.type('git-checkout');
    await r.type('fs-directory', ['git-checkout']);
    await r.type('other');
    for (const [name, type] of [
      ['x/repo', 'git-checkout'],
      ['y/repo', 'fs-directory'],
      ['z/main', 'git-checkout'],
      ['misc/thing', 'other'],
      ['local/shared-config', 'fs-directory'],
    ]) {
      await r.resource(name, type);
    }
    await r.project('ambiguous');
    await r.link('ambiguous', 'x/repo');
    await r.link('ambiguous', 'y/repo');
    await r.link('ambiguous', 'misc/thing');
    await r.project('aliased');
    await r.link('aliased', 'x/repo');
    await r.link('aliased', 'z/main', 'repo');
    await r.project('empty');
    await r.tool('t/repo', [{ name: 'repo', resourceType: 'git-checkout' }]);
    await r.tool('t/mixed', [
      { name: 'config', resourceType: 'fs-directory', binding: 'STATIC', staticResource: 'local/shared-config' },
      { name: 'out', resourceType: 'fs-directory', binding: 'PARAMETER' },
      { name: 'extra', resourceType: 'other', required: false },
    ]);
  });
  after(() => server.close());

  it('explains an AMBIGUOUS slot: every candidate with its verdict, and a concrete fix', async () => {
    const e = await explain('t/repo', 'ambiguous');
    expect(e).to.deep.include({ tool: { name: 't/repo' }, project: { name: 'ambiguous' }, ok: false });
    const [slot] = e.slots;
    expect(slot).to.deep.include({
      slotName: 'repo',
      bindingMode: 'CONTEXTUAL',
      status: 'FAILED',
      reason: 'AMBIGUOUS',
      how: null,
      resource: null,
    });
    expect(slot.fix).to.equal(
      "set alias 'repo' on one of x/repo, y/repo with updateLink, or unlink all but one of them",
    );
    expect(slot.candidates.map((c: any) => [c.ref, c.accepted, c.rejection, c.typeChain])).to.deep.equal([
      ['x/repo', false, 'AMBIGUOUS', ['git-checkout']],
      ['y/repo', false, 'AMBIGUOUS', ['fs-directory', 'git-checkout']],
      ['misc/thing', false, 'TYPE_MISMATCH', ['other']],
    ]);
  });

  it('explains a binding by alias, and why the others were not chosen', async () => {
    const [slot] = (await explain('t/repo', 'aliased')).slots;
    expect(slot).to.deep.include({ status: 'BOUND', how: 'ALIAS', resource: { name: 'z/main' }, reason: null });
    expect(slot.candidates.map((c: any) => [c.ref, c.alias, c.accepted, c.rejection])).to.deep.equal([
      ['x/repo', null, false, 'NOT_CHOSEN_ALIAS'],
      ['z/main', 'repo', true, null],
    ]);
  });

  it('explains NO_MATCH with the type family in the fix, and still answers without error', async () => {
    const e = await explain('t/repo', 'empty');
    expect(e.ok).to.equal(false);
    expect(e.slots[0]).to.deep.include({ status: 'FAILED', reason: 'NO_MATCH' });
    expect(e.slots[0].message).to.equal(
      "slot 'repo': no resource of type git-checkout or its sub-types (fs-directory) is linked to project empty",
    );
    expect(e.slots[0].fix).to.match(
      /^link a resource of type git-checkout or its sub-types \(fs-directory\) to project empty/,
    );
  });

  it('explains STATIC, DEFERRED and UNBOUND_OPTIONAL slots', async () => {
    const e = await explain('t/mixed', 'empty');
    expect(e.ok).to.equal(true);
    expect(e.slots.map((s: any) => [s.slotName, s.status, s.how, s.resource?.name ?? null])).to.deep.equal([
      ['config', 'BOUND', 'STATIC', 'local/shared-config'],
      ['out', 'DEFERRED', null, null],
      ['extra', 'UNBOUND_OPTIONAL', null, null],
    ]);
    expect(e.slots[0].candidates).to.have.length(1);
    expect(e.slots[0].candidates[0]).to.deep.include({ accepted: true, typeChain: ['fs-directory', 'git-checkout'] });
  });

  it('explains PARAMETER NOT_FOUND and TYPE_MISMATCH with the candidate', async () => {
    const missing = await explain('t/mixed', 'empty', [{ slot: 'out', resource: 'no/such' }]);
    expect(missing.slots[1]).to.deep.include({ status: 'FAILED', reason: 'NOT_FOUND' });
    expect(missing.slots[1].candidates).to.deep.equal([
      {
        resource: null,
        ref: 'no/such',
        alias: null,
        accepted: false,
        rejection: 'NOT_FOUND',
        typeChain: [],
        message: "no resource 'no/such' is registered",
      },
    ]);
    const mismatch = await explain('t/mixed', 'empty', [{ slot: 'out', resource: 'x/repo' }]);
    expect(mismatch.slots[1]).to.deep.include({ status: 'FAILED', reason: 'TYPE_MISMATCH' });
    expect(mismatch.slots[1].candidates[0]).to.deep.include({
      ref: 'x/repo',
      rejection: 'TYPE_MISMATCH',
      typeChain: ['git-checkout'],
    });
    const bound = await explain('t/mixed', 'empty', [{ slot: 'out', resource: 'y/repo' }]);
    expect(bound.slots[1]).to.deep.include({ status: 'BOUND', how: 'PARAMETER', resource: { name: 'y/repo' } });
  });

  it('is NOT_FOUND for an unknown tool or project', async () => {
    for (const [tool, project] of [
      ['nope', 'empty'],
      ['t/repo', 'nope'],
    ]) {
      const { body } = await server.gql(EXPLAIN, { tool, project });
      expect(body.errors?.[0].extensions?.code).to.equal('NOT_FOUND');
    }
  });

  it('gives the same explanation through Tool.bindingsIn', async () => {
    const d = await server.data(
      `{ tool(ref: "t/repo") { bindingsIn(project: "ambiguous") { ok slots { status reason fix } } } }`,
    );
    expect(d.tool.bindingsIn).to.deep.equal({
      ok: false,
      slots: [
        {
          status: 'FAILED',
          reason: 'AMBIGUOUS',
          fix: "set alias 'repo' on one of x/repo, y/repo with updateLink, or unlink all but one of them",
        },
      ],
    });
  });
});
