/**
 * The browser entry of the GraphiQL page that GET /graphql serves to browsers.
 * scripts/build-graphiql.ts bundles it, with React and GraphiQL, into
 * dist/graphiql/; nothing here is loaded from anywhere but this server.
 */
import { GraphiQL, type GraphiQLProps } from 'graphiql';
import type { ExecutionResult } from 'graphql';
import { createRoot } from 'react-dom/client';
import { DEFAULT_DOCUMENT } from './default-document';

type Fetcher = GraphiQLProps['fetcher'];

/**
 * POSTs each operation as JSON to the endpoint this page was served from (the
 * page is Apollo's landing page, so that is the GraphQL endpoint itself), with
 * the headers from the headers editor on top. JSON POSTs pass Apollo's CSRF
 * prevention.
 */
const fetcher: Fetcher = async (params, options) => {
  const response = await fetch(window.location.pathname, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { accept: 'application/json', 'content-type': 'application/json', ...options?.headers },
    body: JSON.stringify(params),
  });
  const text = await response.text();
  try {
    return JSON.parse(text) as ExecutionResult;
  } catch {
    throw new Error(
      `the server answered ${response.status} ${response.statusText} with a body that is not JSON: ${text.slice(0, 200)}`,
    );
  }
};

const container = document.getElementById('graphiql');
if (!container) throw new Error('the page has no #graphiql element');
container.textContent = '';
createRoot(container).render(
  <GraphiQL
    fetcher={fetcher}
    defaultQuery={DEFAULT_DOCUMENT}
    // The headers editor is where tokens go (Authorization: Bearer …); open it
    // at the start so people find it. Headers are not persisted unless the user
    // turns that on in the settings.
    isHeadersEditorEnabled
    defaultEditorToolsVisibility="headers"
  />,
);
