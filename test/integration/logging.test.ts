import { expect } from 'chai';
import { ownerOfEverything } from '../../src/core/access';
import { newId } from '../../src/application/ids';
import { ConflictError } from '../../src/core/errors';
import { bootstrap } from '../../src/main';
import { describeEachBackend, sqlite } from '../support/backends';
import { captureLogs } from '../support/logs';
import { startServer } from '../support/server';

describe('request logs', () => {
  it('writes one JSON line per request with the request id, operation name, duration and outcome', async () => {
    const ids: string[] = [];
    const lines = await captureLogs(async (logger) => {
      const app = await bootstrap(
        {
          port: 0,
          host: '127.0.0.1',
          database: await sqlite.freshDatabase(),
          adminToken: null,
          readToken: null,
          demoData: true,
          production: false,
          logLevel: 'info',
          introspection: true,
          countSql: false,
          responseCache: true,
        },
        { logger },
      );
      try {
        const send = async (body: unknown) => {
          const response = await fetch(app.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          ids.push(response.headers.get('x-request-id')!);
        };
        await send({
          query: 'query Demo { resolveBindings(tool: "demo/mixed", project: "demo") { slotName } }',
          operationName: 'Demo',
        });
        await send({ query: 'query Broken { resolveBindings(tool: "nope", project: "demo") { slotName } }' });
        await send({ query: '{ nope }' });
      } finally {
        await app.close();
      }
    });
    const requests = lines.filter((l) => l.msg === 'request completed' && l.url === '/graphql');
    expect(requests).to.have.length(3);
    expect(requests.map((l) => l.reqId)).to.deep.equal(ids);
    expect(
      requests.map((l) => [l.operationName, l.operationType, l.statusCode, l.outcome, l.errorCodes]),
    ).to.deep.equal([
      ['Demo', 'query', 200, 'ok', undefined],
      ['Broken', 'query', 200, 'graphql-errors', ['NOT_FOUND']],
      [undefined, undefined, 400, 'rejected', ['GRAPHQL_VALIDATION_FAILED']],
    ]);
    for (const line of requests) expect(line.durationMs).to.be.a('number').and.at.least(0);
  });

  it('logs an unexpected error with the request id the response carries, stack and all, server-side only', async () => {
    let responseBody: any;
    let headerId: string | null = null;
    const lines = await captureLogs(async (logger) => {
      const app = await bootstrap(
        {
          port: 0,
          host: '127.0.0.1',
          database: await sqlite.freshDatabase(),
          adminToken: null,
          readToken: null,
          demoData: false,
          production: false,
          logLevel: 'info',
          introspection: true,
          countSql: false,
          responseCache: true,
        },
        { logger },
      );
      try {
        await app.db.close();
        const response = await fetch(app.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ tools { totalCount } }' }),
        });
        headerId = response.headers.get('x-request-id');
        responseBody = await response.json();
      } finally {
        await app.close().catch(() => undefined);
      }
    });
    const requestId = responseBody.errors[0].extensions.requestId;
    expect(requestId).to.equal(headerId);
    const logged = lines.find((l) => l.msg === 'unexpected error');
    expect(logged, JSON.stringify(lines)).to.not.equal(undefined);
    expect(logged.requestId).to.equal(requestId);
    expect(logged.err.stack)
      .to.be.a('string')
      .and.match(/\n\s+at /);
    expect(JSON.stringify(responseBody)).to.not.match(/\n\s+at /);
  });
});

describeEachBackend('log levels of failed SQL statements', (backend) => {
  it('logs a constraint violation that becomes CONFLICT (a client mistake) at debug, and a real failure at error', async () => {
    const lines = await captureLogs(async (logger) => {
      const server = await startServer(backend, {}, { logger });
      try {
        const create = `mutation { createProject(input: { name: "dup" }) { project { id } } }`;
        expect((await server.gql(create)).body.errors).to.equal(undefined);
        // The services check a name before inserting it, so only a race reaches the database's unique constraint;
        // this insert skips the check, as the loser of a race would, and the violation becomes CONFLICT.
        const { writes } = server.app.services;
        const request = {
          session: server.app.versioning.session(),
          principal: ownerOfEverything('test'),
          operation: 'createProject',
          dryRun: false,
        };
        let refused: unknown;
        try {
          await writes.change(request, ({ writer }) =>
            writer.insertProject({ id: newId(), name: 'dup', description: null }),
          );
        } catch (error) {
          refused = error;
        }
        expect(refused).to.be.instanceOf(ConflictError);
        await server.app.db.write((tx) => tx.query('SELECT no_such_column FROM project')).catch(() => undefined);
      } finally {
        await server.close();
      }
    });
    const failed = lines.filter((l) => l.msg === 'SQL statement failed');
    const levels = failed.map((l) => [l.level, /no_such_column/.test(String(l.err))]);
    expect(levels).to.deep.equal([
      [20, false],
      [50, true],
    ]);
  });
});
