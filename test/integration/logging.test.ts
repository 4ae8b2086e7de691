import { expect } from 'chai';
import { Writable } from 'node:stream';
import { ownerOfEverything } from '../../src/core/access';
import { newId } from '../../src/application/ids';
import { createLogger, readableLine } from '../../src/logging';
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
          execution: 'fast',
          responseCache: true,
          recordCache: true,
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
          execution: 'fast',
          responseCache: true,
          recordCache: true,
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

describe('development logs (LOG_FORMAT=pretty, as on a terminal)', () => {
  it('writes one readable line per request: method, path, operation, status, time and cache', async () => {
    let text = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        text += String(chunk);
        done();
      },
    });
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
        logFormat: 'pretty',
        introspection: true,
        execution: 'fast',
        responseCache: true,
        recordCache: true,
      },
      { logger: createLogger('info', 'pretty', sink) },
    );
    try {
      const send = (body: unknown) =>
        fetch(app.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const demo = { query: 'query Demo { resolveBindings(tool: "demo/mixed", project: "demo") { slotName } }' };
      await send(demo);
      await send(demo);
      await send({ query: 'query Broken { resolveBindings(tool: "nope", project: "demo") { slotName } }' });
      await send({ query: 'mutation Add { createProject(input: { name: "logged" }) { project { id } } }' });
      await fetch(`${app.url.replace(/\/graphql$/, '')}/healthz`);
    } finally {
      await app.close();
    }
    const lines = text.split('\n').filter(Boolean);
    // Every line is one entry: a time, a level, then the message; nothing spills onto lines of its own.
    for (const line of lines) expect(line).to.match(/^\[\d\d:\d\d:\d\d\.\d{3}\] (INFO|WARN): \S/);
    const requests = lines.filter((line) => / (GET|POST) \//.test(line));
    const ms = '\\d+(\\.\\d+)? ms';
    const shown = requests.map((line) => line.replace(/^\[[^\]]+\] INFO: /, ''));
    const expected = [
      `^POST /graphql query Demo 200 ${ms} cache miss$`,
      `^POST /graphql query Demo 200 ${ms} cache hit$`,
      `^POST /graphql query Broken 200 ${ms} cache miss NOT_FOUND$`,
      `^POST /graphql mutation Add 200 ${ms} by anonymous$`,
      `^GET /healthz 200 ${ms}$`,
    ];
    expect(shown, text).to.have.length(expected.length);
    expected.forEach((pattern, i) => expect(shown[i]).to.match(new RegExp(pattern)));
    expect(
      lines.some((line) => /INFO: registry server listening url=http:\/\/127\.0\.0\.1:\d+\/graphql /.test(line)),
    ).to.equal(true);
  });

  it("shows any other entry as its message and key=value fields, and an error's stack below it", () => {
    expect(readableLine({ level: 30, msg: 'database migrated', migrations: ['A', 'B'], pid: 1 })).to.equal(
      'database migrated migrations=["A","B"]',
    );
    const error = new Error('boom');
    const logged = readableLine({ level: 50, msg: 'unexpected error', err: { message: 'boom', stack: error.stack } });
    expect(logged.split('\n')[0]).to.equal('unexpected error err="boom"');
    expect(logged.split('\n')[1]).to.equal('Error: boom');
  });
});

describeEachBackend('log levels of failed SQL statements', (backend) => {
  it('logs a constraint violation that becomes CONFLICT (a client mistake) at debug, and a real failure at error', async () => {
    const lines = await captureLogs(async (logger) => {
      const server = await startServer(backend, {}, { logger });
      try {
        const create = `mutation { registerResourceType(input: { name: "dup" }) { resourceType { id } } }`;
        expect((await server.gql(create)).body.errors).to.equal(undefined);
        // The services check a name before inserting it, so only a race reaches the database's unique constraint;
        // this insert skips the check, as the loser of a race would, and the violation becomes CONFLICT. (Projects,
        // resources and tools are inserted with ON CONFLICT DO NOTHING, and a taken name is reported without a
        // violation; a type's insert is a plain one.)
        const { writes } = server.app.services;
        const request = {
          session: server.app.versioning.session(),
          principal: ownerOfEverything('test'),
          operation: 'registerResourceType',
          dryRun: false,
        };
        let refused: unknown;
        try {
          await writes.change(request, ({ writer }) =>
            writer.insertType({ id: newId(), name: 'dup', description: null, parentIds: [] }),
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
