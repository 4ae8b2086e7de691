// Registry files go through js-yaml first when nothing in them can read differently there (src/registry-files/
// source.ts): every such file must give exactly the data `yaml` gives, scalar by scalar, and every problem must
// still be placed at its line and column.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'chai';
import fc from 'fast-check';
import { parseAllDocuments, stringify } from 'yaml';
import { parseRegistryFile } from '../../src/registry-files';
import { duplicateProblems, toolEntries } from '../../src/registry-files/map';
import { parseYaml, type YamlSource } from '../../src/registry-files/source';
import { propertyCases } from '../support/property';

/** What `yaml` alone makes of the text: the data, or 'refused'. */
function yamlData(text: string): unknown {
  const documents = parseAllDocuments(text, { uniqueKeys: true });
  if (documents.length !== 1 || documents[0].errors.length > 0) return 'refused';
  return documents[0].toJS({ maxAliasCount: 100 }) ?? null;
}

function parsedData(text: string): unknown {
  const parsed = parseYaml(text, 'f.yaml');
  return parsed.ok ? parsed.source.data : 'refused';
}

/** Plain scalars and quoted ones, the core schema's edge cases among them. */
const SCALARS = [
  ...[
    '1',
    '-1',
    '+1',
    '0',
    '-0',
    '00',
    '017',
    '0o17',
    '0o8',
    '0x1F',
    '0x1f',
    '0xG',
    '0b101',
    '1_000',
    '9007199254740993',
  ],
  ...['123456789012345678901234567890', '1e3', '1E-3', '1.5', '.5', '+.5', '-.5', '1.', '1e', 'e1', '0.0', '+1e+2'],
  ...['.inf', '-.Inf', '+.INF', '.NaN', '.nan', '.NAN', 'inf', 'nan', 'true', 'True', 'TRUE', 'tRUE', 'false'],
  ...[
    'yes',
    'no',
    'on',
    'off',
    'y',
    'n',
    'null',
    'Null',
    'NULL',
    'nULL',
    '~',
    '',
    '2024-01-01',
    '2024-01-01T10:00:00Z',
  ],
  ...['12:30', '1:20:30', '=', '<<', 'x #c', 'a/b', 'git-checkout', 'READ_ONLY', "'quoted'", "'it''s'", '"dq\\u00e9"'],
  ...['"a\\tb"', '"1"', "'true'", '"null"', '[1, 2]', '{a: 1}', '[]', '{}', '"x: y"', 'é', '日本', '- 1'],
];

describe('reading registry files with js-yaml where it reads as yaml does', () => {
  it('reads every scalar of the core schema exactly as yaml does, as a value and in a list', () => {
    const differ: string[] = [];
    for (const scalar of SCALARS) {
      for (const text of [`k: ${scalar}\n`, `- ${scalar}\n- x\n`, `k:\n  - ${scalar}\n`]) {
        if (!isDeepStrictEqual(parsedData(text), yamlData(text))) differ.push(JSON.stringify(text));
      }
    }
    expect(differ).to.deep.equal([]);
  });

  it('reads block scalars, flow collections, comments, CRLF line ends and a byte order mark as yaml does', () => {
    const texts = [
      'k: |\n  line one\n  line two\nn: 1\n',
      'k: >-\n  folded\n  text\n\n  para\n',
      'k: |+\n  kept\n\n',
      'k: [a, {b: 1, c: [2, 3]}, "d"]\n',
      '# heading\nk: v # trailing\n# end\n',
      'k: v\r\nl:\r\n  - 1\r\n',
      '\uFEFFk: v\n',
      'k: "multi\n  line"\n',
      'a:\n  b:\n    c:\n      - d: 1\n        e: [x]\n',
      '? complex\n: value\n',
      '"quoted key": 1\n\'single\': 2\n',
    ];
    for (const text of texts) expect(parsedData(text), JSON.stringify(text)).to.deep.equal(yamlData(text));
  });

  it(`reads any data yaml writes as yaml reads it back (${propertyCases(60, 33).label})`, () => {
    const { numRuns, seed } = propertyCases(60, 33);
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(
        fc.string({ unit: 'grapheme', maxLength: 12 }),
        fc.integer(),
        fc.double({ noNaN: false }),
        fc.boolean(),
        fc.constant(null),
      ),
      list: fc.array(tie('node'), { maxLength: 4 }),
      map: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), tie('node'), { maxKeys: 4 }),
      node: fc.oneof({ depthSize: 'small' }, tie('leaf'), tie('list'), tie('map')),
    }));
    fc.assert(
      fc.property(value.map, (data) => {
        const text = stringify(data);
        expect(parsedData(text)).to.deep.equal(yamlData(text));
      }),
      { numRuns, seed },
    );
  });

  it('reads the shipped examples as yaml does', () => {
    const files = [
      ...readdirSync('examples').filter((f) => f.endsWith('.yaml')),
      ...readdirSync('examples/tools').map((f) => join('tools', f)),
    ];
    expect(files.length).to.be.greaterThan(4);
    for (const file of files) {
      const text = readFileSync(join('examples', file), 'utf8');
      expect(parsedData(text), file).to.deep.equal(yamlData(text));
    }
  });

  it('still places every problem at its line and column', () => {
    // Read by js-yaml (nothing in it is left to yaml), then found wrong by validation: placed through yaml.
    const outcome = parseRegistryFile(
      ['name: acme/tool', 'resource_slots:', '  - name: repo', '    resource_type: vcs', '    access: FLY', ''].join(
        '\n',
      ),
      'tool.yaml',
    );
    expect(outcome.ok).to.equal(false);
    const problems = outcome.ok ? [] : outcome.problems;
    expect(problems.map((p) => [p.path, p.position])).to.deep.equal([
      ['resource_slots[0].access', { line: 5, column: 13 }],
    ]);
    // Refused by js-yaml (a repeated key): yaml says where.
    const repeated = parseYaml('k: 1\nk: 2\n', 'r.yaml');
    expect(repeated.ok).to.equal(false);
    expect(repeated.ok ? null : repeated.problems[0].position).to.deep.equal({ line: 2, column: 1 });
  });

  it('checks a file for repeated entries without working out where anything is, unless one repeats', () => {
    const tools = [
      { name: 'a', resource_slots: [] },
      { name: 'b', resource_slots: [] },
    ];
    let located = 0;
    const source: YamlSource = {
      file: 't.yaml',
      data: tools,
      locate: (path) => {
        located += 1;
        return { line: Number(path[0]) + 1, column: 3 };
      },
    };
    expect(duplicateProblems(source, toolEntries(tools))).to.deep.equal([]);
    expect(located).to.equal(0);
    const repeated = [...tools, { name: 'a', resource_slots: [] }];
    expect(
      duplicateProblems({ ...source, data: repeated }, toolEntries(repeated as never)).map((p) => p.message),
    ).to.deep.equal(['tool a is already defined in this file (line 1)']);
    expect(located).to.be.greaterThan(0);
  });

  it('leaves to yaml alone a file with a directive, a tag, an anchor or an alias', () => {
    const texts = ['%YAML 1.1\n---\nk: yes\n', 'k: !!str 1\n', 'a: &x [1]\nb: *x\n'];
    for (const text of texts) expect(parsedData(text), JSON.stringify(text)).to.deep.equal(yamlData(text));
    // An alias bomb is refused as before, not expanded.
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...'bcdefgh'.split('').map((c, i) => `${c}: &${c} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`),
    ].join('\n');
    const refused = parseYaml(bomb, 'bomb.yaml');
    expect(refused.ok ? null : refused.problems.map((p) => p.message)).to.deep.equal([
      'Excessive alias count indicates a resource exhaustion attack',
    ]);
  });
});
