/**
 * The server's modules (the composition root and all it imports), loaded by
 * the commands that need them (serve, migrate) when they run: loading them
 * takes about a second, which register, export, backup, restore, --version
 * and --help do not need to pay.
 */
export function serverModules(): typeof import('../main') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand, as said above
  return require('../main') as typeof import('../main');
}
