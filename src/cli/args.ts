/** Command-line options the register and export tools share: the server, the token, and where paths start. */

/** The GraphQL endpoint when --url is not given. */
export const DEFAULT_URL = 'http://localhost:4000/graphql';

/** A usage problem: the tools print it with their usage text and exit 2. */
export class UsageError extends Error {}

/**
 * The endpoint and token from --url and --token (default $REGISTRY_TOKEN, else $ADMIN_TOKEN as before; none when
 * none is set). The token is any the server takes: an API token (trg_…), a signed-in user's JWT, an admin token.
 */
export function serverOptions(values: { url?: string; token?: string }): { url: string; token: string | null } {
  const url = values.url ?? DEFAULT_URL;
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new UsageError(`--url is not a URL: ${url}`);
  }
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new UsageError(`--url must be an http:// or https:// URL: ${url}`);
  const token = values.token ?? (process.env.REGISTRY_TOKEN || process.env.ADMIN_TOKEN) ?? '';
  return { url, token: token === '' ? null : token };
}

/**
 * `npm run` starts scripts in the package folder; paths on the command line
 * are relative to where it was typed, so go there when npm ran this script.
 */
export function workInInvocationFolder(script: string): void {
  if (process.env.npm_lifecycle_event === script && process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
}
