import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '..', '..', 'src');

/** Every import specifier of every .ts file under a folder of src/. */
function importsUnder(folder: string): { file: string; specifier: string }[] {
  const found: { file: string; specifier: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts')) {
        for (const match of readFileSync(path, 'utf8').matchAll(
          /(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(['"]([^'"]+)['"]\)/g,
        )) {
          found.push({ file: relative(SRC, path), specifier: match[1] ?? match[2] });
        }
      }
    }
  };
  walk(join(SRC, folder));
  return found;
}

/** The layer boundaries, checked on the source so they cannot erode unnoticed. */
describe('architecture', () => {
  it('keeps the core pure: no graphql, type-graphql, typeorm, HTTP or database imports, and no outer layers', () => {
    const bad = importsUnder('core').filter(({ specifier }) => !specifier.startsWith('./'));
    expect(bad).to.deep.equal([]);
  });

  it('keeps the application layer free of GraphQL and HTTP', () => {
    const bad = importsUnder('application').filter(({ specifier }) =>
      /^(graphql|type-graphql|@apollo|fastify|@as-integrations)|\/graphql\/|\/http\//.test(specifier),
    );
    expect(bad).to.deep.equal([]);
  });

  it('keeps persistence free of GraphQL, HTTP and the application layer', () => {
    const bad = importsUnder('persistence').filter(({ specifier }) =>
      /^(graphql|type-graphql|@apollo|fastify)|\/graphql\/|\/http\/|\/application\//.test(specifier),
    );
    expect(bad).to.deep.equal([]);
  });

  it('keeps the YAML file module free of GraphQL, HTTP, the application layer and persistence: it maps to plain objects', () => {
    const bad = importsUnder('registry-files').filter(({ specifier }) =>
      /^(graphql|type-graphql|@apollo|fastify|@as-integrations|typeorm|pg|better-sqlite3)|\/graphql\/|\/http\/|\/application\/|\/persistence\//.test(
        specifier,
      ),
    );
    expect(bad).to.deep.equal([]);
    expect(importsUnder('registry-files').map((i) => i.specifier)).to.include.members([
      'yaml',
      'ajv',
      '../core/grammar',
    ]);
  });

  it('keeps GraphQL types and resolvers away from TypeORM', () => {
    const bad = importsUnder('graphql').filter(({ specifier }) =>
      /^typeorm|\/persistence\/(database|entities|migrations)/.test(specifier),
    );
    expect(bad).to.deep.equal([]);
  });
});
