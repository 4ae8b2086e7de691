import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staleOutputs } from '../../scripts/prune-build';

describe('pruning the build (scripts/prune-build.ts)', () => {
  it('lists the compiled files whose source is gone, and keeps the rest', () => {
    const root = mkdtempSync(join(tmpdir(), 'prune-'));
    try {
      const write = (path: string) => {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), '');
      };
      // A source moved into a folder (src/config.ts → src/config/index.ts): its old output must go.
      write('src/config/index.ts');
      write('src/main.ts');
      write('dist/src/config/index.js');
      write('dist/src/config.js');
      write('dist/src/config.js.map');
      write('dist/src/main.js');
      write('dist/src/main.js.map');
      write('dist/src/readme.txt');
      const stale = staleOutputs(join(root, 'dist'), root, join(root, 'dist', 'src')).map((p) => p.slice(root.length));
      expect(stale.sort()).to.deep.equal(['/dist/src/config.js', '/dist/src/config.js.map']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
