import type { ApolloServerPlugin } from '@apollo/server';
import type { RequestContext } from '../graphql/context';

/** Fills in the request's report (operation and error codes) for its one log line. */
export const requestReportPlugin: ApolloServerPlugin<RequestContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response, contextValue, request, operation }) {
        const { report } = contextValue;
        report.operationName = request.operationName ?? operation?.name?.value ?? null;
        report.operationType = operation?.operation ?? null;
        if (report.operationType === 'mutation') report.actor = contextValue.access.principal?.id ?? null;
        if (response.body.kind !== 'single') return;
        for (const error of response.body.singleResult.errors ?? []) {
          report.errorCodes.push(typeof error.extensions?.code === 'string' ? error.extensions.code : 'UNKNOWN');
        }
      },
    };
  },
};
