// Apollo Client 4 reads this when its modules load: without it, the default build leaves out its development warnings
// (among them "Cache data may be lost"), which the Apollo Client tests look for. Import this module before @apollo/client,
// in every test file that loads it: `npm test` reuses workers, and the first file of a worker to load Apollo Client decides
// its mode for the files after it (it is an ES module, which stays loaded).
(globalThis as { __DEV__?: boolean }).__DEV__ = true;
