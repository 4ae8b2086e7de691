/** Writes schema.graphql from the code (sorted). `npm run schema:emit`; a test fails when the committed file differs. */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildRegistrySchema } from '../src/engine/executable-schema';
import { printRegistrySchema } from '../src/graphql/schema';

async function main(): Promise<void> {
  const target = resolve(__dirname, '..', 'schema.graphql');
  writeFileSync(target, printRegistrySchema(await buildRegistrySchema()));
  console.log(`wrote ${target}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
