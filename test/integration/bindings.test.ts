import { expect } from 'chai';
import { describeEachBackend } from '../support/backends';
import { RESOLVE, registryOf } from '../support/registry-fixtures';
import { startServer, type TestServer } from '../support/server';

describeEachBackend('resolveBindings', (backend) => {
  let server: TestServer;
  let r: ReturnType<typeof registryOf>;
  const resolve = (tool: string, project: string, params?: { slot: string; resource: string }[]) =>
    server.gql(RESOLVE, { tool, project, params });
  const bound = async (tool: string, project: string, params?: { slot: string; resource: string }[]) => {
    const { body } = await resolve(tool, project, params);
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return (body.data!.resolveBindings as any[]).map((b) => [b.slotName, b.resource?.name ?? null, b.deferred]);
  };
  const failure = async (tool: string, project: string, params?: { slot: string; resource: string }[]) => {
    const { body } = await resolve(tool, project, params);
    expect(body.data).to.equal(null);
    expect(body.errors).to.have.length(1);
    return body.errors![0];
  };

  before(async () => {
    server = await startServer(backend);
    r = registryOf(server);
    await r.type('git-checkout');
    await r.type('fs-directory', ['git-checkout']);
    await r.type('tmp-directory', ['fs-directory']);
    await r.type('other');
    for (const [name, type] of [
      ['acme/app-repo', 'git-checkout'],
      ['local/shared-config', 'fs-directory'],
      ['x/repo', 'git-checkout'],
      ['y/repo', 'git-checkout'],
      ['t/scratch', 'tmp-directory'],
      ['misc/thing', 'other'],
    ]) {
      await r.resource(name, type);
    }
    await r.tool('needs-repo', [{ name: 'repo', resourceType: 'git-checkout', access: 'READ_WRITE' }]);
    await r.tool('needs-dir', [{ name: 'dir', resourceType: 'fs-directory' }]);
    await r.tool('optional-dir', [{ name: 'dir', resourceType: 'fs-directory', required: false }]);
    await r.tool('params', [
      { name: 'out', resourceType: 'fs-directory', binding: 'PARAMETER', access: 'WRITE_ONLY' },
      { name: 'ctx', resourceType: 'other' },
    ]);
  });
  after(() => server.close());

  it('binds the single compatible linked resource', async () => {
    await r.project('single');
    await r.link('single', 'acme/app-repo');
    await r.link('single', 'misc/thing');
    expect(await bound('needs-repo', 'single')).to.deep.equal([['repo', 'acme/app-repo', false]]);
  });

  it('includes sub-types, transitively: a tmp-directory fills a git-checkout slot', async () => {
    await r.project('subtypes');
    await r.link('subtypes', 't/scratch');
    expect(await bound('needs-repo', 'subtypes')).to.deep.equal([['repo', 't/scratch', false]]);
  });

  it('never accepts a parent type for a sub-type slot', async () => {
    await r.project('parent-only');
    await r.link('parent-only', 'acme/app-repo');
    const error = await failure('needs-dir', 'parent-only');
    expect(error.extensions?.problems).to.deep.equal([
      {
        slot: 'dir',
        reason: 'NO_MATCH',
        message:
          "slot 'dir': no resource of type fs-directory or its sub-types (tmp-directory) is linked to project parent-only; link a resource of type fs-directory or its sub-types (tmp-directory) to project parent-only, or make the slot optional",
        candidates: [],
      },
    ]);
  });

  it('uses the alias to break a tie, before the short name', async () => {
    await r.project('aliased');
    await r.link('aliased', 'x/repo');
    await r.link('aliased', 'acme/app-repo', 'repo');
    expect(await bound('needs-repo', 'aliased')).to.deep.equal([['repo', 'acme/app-repo', false]]);
  });

  it('uses the short name when no alias matches', async () => {
    await r.project('short');
    await r.link('short', 'x/repo');
    await r.link('short', 'acme/app-repo');
    expect(await bound('needs-repo', 'short')).to.deep.equal([['repo', 'x/repo', false]]);
  });

  it('is AMBIGUOUS when several share the short name, listing those still tied', async () => {
    await r.project('tied');
    await r.link('tied', 'x/repo');
    await r.link('tied', 'y/repo');
    await r.link('tied', 'acme/app-repo');
    const error = await failure('needs-repo', 'tied');
    expect(error.extensions?.code).to.equal('BINDING_RESOLUTION_FAILED');
    expect(error.extensions?.problems).to.have.length(1);
    expect(error.extensions?.problems[0]).to.deep.include({
      slot: 'repo',
      reason: 'AMBIGUOUS',
      candidates: ['x/repo', 'y/repo'],
    });
    expect(error.extensions?.problems[0].message).to.match(
      /set alias 'repo' on one of x\/repo, y\/repo with updateLink, or unlink all but one of them$/,
    );
  });

  it('is AMBIGUOUS when no alias or short name picks one, listing all compatible', async () => {
    await r.project('vague');
    await r.link('vague', 'acme/app-repo');
    await r.link('vague', 'local/shared-config');
    await r.link('vague', 'misc/thing');
    const error = await failure('needs-repo', 'vague');
    expect(error.extensions?.problems[0]).to.deep.include({
      reason: 'AMBIGUOUS',
      candidates: ['acme/app-repo', 'local/shared-config'],
    });
  });

  it('is NO_MATCH for a required slot with nothing compatible', async () => {
    await r.project('empty');
    const error = await failure('needs-repo', 'empty');
    expect(error.extensions?.problems[0]).to.deep.include({ slot: 'repo', reason: 'NO_MATCH', candidates: [] });
  });

  it('leaves an optional slot unbound, without error', async () => {
    const { body } = await resolve('optional-dir', 'empty');
    expect(body.errors).to.equal(undefined);
    expect(body.data!.resolveBindings).to.deep.equal([
      {
        slotName: 'dir',
        bindingMode: 'CONTEXTUAL',
        resourceId: null,
        resource: null,
        deferred: false,
        access: 'READ_ONLY',
      },
    ]);
  });

  it('defers a PARAMETER slot without a param, even when required', async () => {
    await r.project('p');
    await r.link('p', 'misc/thing');
    const { body } = await resolve('params', 'p');
    expect(body.data!.resolveBindings[0]).to.deep.equal({
      slotName: 'out',
      bindingMode: 'PARAMETER',
      resourceId: null,
      resource: null,
      deferred: true,
      access: 'WRITE_ONLY',
    });
  });

  it('binds a PARAMETER slot eagerly from params, by name or id, anywhere in the registry', async () => {
    expect(await bound('params', 'p', [{ slot: 'out', resource: 't/scratch' }])).to.deep.equal([
      ['out', 't/scratch', false],
      ['ctx', 'misc/thing', false],
    ]);
    const id = (await server.data(`{ resource(ref: "local/shared-config") { id } }`)).resource.id;
    const { body } = await resolve('params', 'p', [{ slot: 'out', resource: id }]);
    expect(body.data!.resolveBindings[0]).to.deep.include({ resourceId: id, deferred: false });
  });

  it('reports a param naming nothing as NOT_FOUND at slot level, and a wrong type as TYPE_MISMATCH', async () => {
    const missing = await failure('params', 'p', [{ slot: 'out', resource: 'no/such' }]);
    expect(missing.extensions?.code).to.equal('BINDING_RESOLUTION_FAILED');
    expect(missing.extensions?.problems[0]).to.deep.include({ slot: 'out', reason: 'NOT_FOUND', candidates: [] });
    const mismatch = await failure('params', 'p', [{ slot: 'out', resource: 'acme/app-repo' }]);
    expect(mismatch.extensions?.problems[0]).to.deep.include({
      slot: 'out',
      reason: 'TYPE_MISMATCH',
      candidates: ['acme/app-repo'],
    });
  });

  it('lists every failing slot, not just the first', async () => {
    await r.tool('two-failures', [
      { name: 'a', resourceType: 'fs-directory' },
      { name: 'b', resourceType: 'other', binding: 'PARAMETER' },
      { name: 'c', resourceType: 'git-checkout' },
    ]);
    const error = await failure('two-failures', 'tied', [{ slot: 'b', resource: 'x/repo' }]);
    expect(error.extensions?.problems.map((p: any) => [p.slot, p.reason])).to.deep.equal([
      ['a', 'NO_MATCH'],
      ['b', 'TYPE_MISMATCH'],
      ['c', 'AMBIGUOUS'],
    ]);
  });

  it('binds STATIC slots from the whole registry, whatever the project links', async () => {
    await r.tool('static', [
      { name: 'config', resourceType: 'fs-directory', binding: 'STATIC', staticResource: 'local/shared-config' },
    ]);
    expect(await bound('static', 'empty')).to.deep.equal([['config', 'local/shared-config', false]]);
  });

  it('is NOT_FOUND (top level) for an unknown tool or project', async () => {
    expect((await failure('no-such-tool', 'p')).extensions?.code).to.equal('NOT_FOUND');
    expect((await failure('params', 'no-such-project')).extensions?.code).to.equal('NOT_FOUND');
  });

  it('refuses bad params with BAD_USER_INPUT: unknown slot, non-PARAMETER slot, a slot given twice', async () => {
    const unknown = await failure('params', 'p', [{ slot: 'nope', resource: 't/scratch' }]);
    expect(unknown.extensions).to.deep.equal({
      code: 'BAD_USER_INPUT',
      problems: [{ field: 'params[0].slot', message: "tool 'params' has no slot 'nope'" }],
    });
    const contextual = await failure('params', 'p', [{ slot: 'ctx', resource: 'misc/thing' }]);
    expect(contextual.extensions?.problems[0].message).to.equal(
      "slot 'ctx' is CONTEXTUAL-bound; only PARAMETER slots take params",
    );
    const twice = await failure('params', 'p', [
      { slot: 'out', resource: 't/scratch' },
      { slot: 'out', resource: 't/scratch' },
    ]);
    expect(twice.extensions?.problems).to.deep.equal([
      { field: 'params[1].slot', message: "slot 'out' is given twice (params[0] and params[1])" },
    ]);
  });

  it('caps params at 64, before anything runs (400, no data)', async () => {
    const params = Array.from({ length: 65 }, () => ({ slot: 'out', resource: 't/scratch' }));
    const { status, body } = await resolve('params', 'p', params);
    expect(status).to.equal(400);
    expect(body).not.to.have.property('data');
    expect(body.errors).to.have.length(1);
    expect(body.errors![0].extensions).to.deep.equal({
      code: 'BAD_USER_INPUT',
      problems: [{ field: 'params', message: 'params must have at most 64 entries' }],
    });
  });

  it('refuses a malformed param slot name with BAD_USER_INPUT naming the field', async () => {
    const error = await failure('params', 'p', [{ slot: 'Out!', resource: 't/scratch' }]);
    expect(error.extensions?.problems[0].field).to.equal('params[0].slot');
  });

  it('gives each BindingResult its resource, with the type and ancestors', async () => {
    const d = await server.data(
      `{ resolveBindings(tool: "needs-repo", project: "subtypes") { resource { name shortName type { name ancestors { name } } } } }`,
    );
    expect(d.resolveBindings[0].resource).to.deep.equal({
      name: 't/scratch',
      shortName: 'scratch',
      type: { name: 'tmp-directory', ancestors: [{ name: 'fs-directory' }, { name: 'git-checkout' }] },
    });
  });
});
