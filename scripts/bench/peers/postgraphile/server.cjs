// PostGraphile 4 on the benchmark's PostgreSQL database: DATABASE_URL, PORT (127.0.0.1 only). No mutations, no
// watch, no GraphiQL: the read API PostGraphile derives from the registry's own tables, as it stands.
'use strict';
const http = require('node:http');
const { postgraphile } = require('postgraphile');

const url = process.env.DATABASE_URL;
const port = Number(process.env.PORT);
if (!url || !Number.isInteger(port)) {
  console.error('usage: DATABASE_URL=postgres://… PORT=n node server.cjs');
  process.exit(2);
}
const middleware = postgraphile(url, 'public', {
  disableDefaultMutations: true,
  graphqlRoute: '/graphql',
  graphiql: false,
  retryOnInitFail: false,
  disableQueryLog: true,
  ignoreRBAC: true,
});
http.createServer(middleware).listen(port, '127.0.0.1', () => console.log(`postgraphile ready on ${port}`));
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(0));
