// The pipeline's stages that Apollo's plugins and the direct path share: the read rule (core/access.ts), and the report.
import { expect } from 'chai';
import { parse, type OperationDefinitionNode } from 'graphql';
import { ownerOfEverything, readRefusal } from '../../src/core/access';
import { UnauthenticatedError } from '../../src/core/errors';
import { readAccessError } from '../../src/engine/read-access';
import { reportCacheHit, reportErrors, reportOperation } from '../../src/engine/report';
import { authChecker, READ } from '../../src/graphql/authorization';
import type { Access, RequestContext, RequestReport } from '../../src/graphql/context';

const reader: Access = { canRead: true, presented: 'none', principal: null, failure: null };
const nobody: Access = { canRead: false, presented: 'none', principal: null, failure: null };
const expired: Access = { canRead: false, presented: 'invalid', principal: null, failure: 'the token expired' };

function newReport(): RequestReport {
  return { operationName: null, operationType: null, actor: null, errorCodes: [], cache: 'bypass' };
}

function operationOf(text: string): OperationDefinitionNode {
  return parse(text).definitions[0] as OperationDefinitionNode;
}

describe('the read rule (readRefusal), asked by every read path', () => {
  it('lets a caller who may read through', () => {
    expect(readRefusal(reader)).to.equal(null);
    expect(readAccessError(reader)).to.equal(null);
  });

  it('says a token is needed when there is none and reads need one', () => {
    expect(readRefusal(nobody)).to.match(/^reading the registry needs a token/);
  });

  it('says which check a refused credential failed', () => {
    expect(readRefusal(expired)).to.equal('not authenticated: the token expired');
  });

  it('gives the read stage and the fields the same refusal: UNAUTHENTICATED, 401 before any operation runs', () => {
    const error = readAccessError(expired)!;
    expect(error.message).to.equal(readRefusal(expired));
    expect(error.extensions).to.deep.include({ code: 'UNAUTHENTICATED', http: { status: 401 } });
    const context = { access: expired } as RequestContext;
    const check = () => authChecker({ context, root: {}, args: {}, info: {} as never }, [READ]);
    expect(check).to.throw(UnauthenticatedError, readRefusal(expired)!);
  });
});

describe('the report (reportOperation), filled in one place', () => {
  it('names the operation by the name the request gave, else its own', () => {
    const report = newReport();
    reportOperation(report, 'Given', operationOf('query Own { __typename }'), null);
    expect(report).to.include({ operationName: 'Given', operationType: 'query', actor: null });
    const unnamed = newReport();
    reportOperation(unnamed, null, operationOf('query Own { __typename }'), null);
    expect(unnamed.operationName).to.equal('Own');
  });

  it("records a mutation's actor, and no actor for a query", () => {
    const principal = ownerOfEverything('token:admin');
    const mutation = newReport();
    reportOperation(mutation, undefined, operationOf('mutation Add { __typename }'), principal);
    expect(mutation).to.include({ operationType: 'mutation', actor: 'token:admin' });
    const query = newReport();
    reportOperation(query, undefined, operationOf('{ __typename }'), principal);
    expect(query).to.include({ operationName: null, operationType: 'query', actor: null });
  });

  it('reports no operation when none resolved', () => {
    const report = newReport();
    reportOperation(report, undefined, null, null);
    expect(report).to.include({ operationName: null, operationType: null });
  });

  it("lists each error's code, UNKNOWN for one without", () => {
    const report = newReport();
    reportErrors(report, [{ extensions: { code: 'NOT_FOUND' } }, {}, { extensions: { code: 7 } }]);
    expect(report.errorCodes).to.deep.equal(['NOT_FOUND', 'UNKNOWN', 'UNKNOWN']);
  });

  it('marks an answer from the response cache as a query that hit', () => {
    const report = newReport();
    reportCacheHit(report, 'Demo');
    expect(report).to.include({ operationName: 'Demo', operationType: 'query', cache: 'hit' });
  });
});
