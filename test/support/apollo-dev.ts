// Apollo Client 4 reads this when its modules load: without it, the default build leaves out its development warnings
// (among them "Cache data may be lost"), which the Apollo Client tests look for. Import this module before @apollo/client.
(globalThis as { __DEV__?: boolean }).__DEV__ = true;
