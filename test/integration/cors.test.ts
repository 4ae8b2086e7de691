import { expect } from 'chai';
import { sqlite } from '../support/backends';
import { startServer, type TestServer } from '../support/server';

const ALLOWED = 'https://app.example.com';
const REFUSED = 'https://evil.example.net';

/** The Access-Control-* headers of a response. */
function corsHeaders(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-')));
}

const preflight = (server: TestServer, origin: string) =>
  fetch(server.url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, authorization',
    },
  });

const crossOriginPost = (server: TestServer, origin: string) =>
  fetch(server.url, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ __typename }' }),
  });

describe('CORS', () => {
  describe('with CORS_ORIGINS set', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(sqlite, { corsOrigins: [ALLOWED, 'http://localhost:5173'] });
    });
    after(() => server.close());

    it('answers the preflight of an allowed origin, for the headers a GraphQL client sends', async () => {
      const response = await preflight(server, ALLOWED);
      expect(response.status).to.equal(204);
      expect(corsHeaders(response)).to.deep.equal({
        'access-control-allow-origin': ALLOWED,
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'content-type, authorization',
        'access-control-expose-headers': 'x-request-id, x-registry-cache, etag, retry-after',
        'access-control-max-age': '600',
      });
      expect(response.headers.get('vary')).to.match(/\bOrigin\b/);
    });

    it('lets an allowed origin read the answer', async () => {
      const response = await crossOriginPost(server, ALLOWED);
      expect(response.status).to.equal(200);
      expect(response.headers.get('access-control-allow-origin')).to.equal(ALLOWED);
      expect(response.headers.get('access-control-expose-headers')).to.include('x-request-id');
      expect(await response.json()).to.deep.equal({ data: { __typename: 'Query' } });
    });

    it('gives a refused origin no CORS headers, preflight or not', async () => {
      expect(corsHeaders(await preflight(server, REFUSED))).to.deep.equal({});
      const response = await crossOriginPost(server, REFUSED);
      expect(corsHeaders(response)).to.deep.equal({});
      expect(response.headers.get('vary')).to.match(/\bOrigin\b/);
    });

    it('adds nothing for a request without an Origin (same origin, or not a browser)', async () => {
      const response = await server.gql('{ __typename }');
      expect(response.status).to.equal(200);
    });
  });

  describe('without CORS_ORIGINS (the default)', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(sqlite);
    });
    after(() => server.close());

    it('sends no CORS headers to anyone', async () => {
      expect(corsHeaders(await preflight(server, ALLOWED))).to.deep.equal({});
      expect(corsHeaders(await crossOriginPost(server, ALLOWED))).to.deep.equal({});
    });
  });
});
