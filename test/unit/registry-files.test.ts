import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIMITS, RESOURCE_NAME_PATTERN, SLOT_NAME_PATTERN, TYPE_NAME_PATTERN } from '../../src/core/grammar';
import { DEMO_FILES, repositoryRoot } from '../../src/demo/demo-data';
import {
  findYamlFiles,
  formatProblem,
  locateServerProblem,
  parseRegistryFile,
  readRegistryFile,
  suggest,
  REGISTRY_SCHEMA,
  TOOL_SCHEMA,
  type Entry,
  type FileOutcome,
  type RegistryFile,
} from '../../src/registry-files';

const ROOT = repositoryRoot();

/** The file's entries; fails the test when the file has problems. */
function entriesOf(text: string): Entry[] {
  return valid(parseRegistryFile(text, 'f.yaml')).entries as Entry[];
}

function valid(outcome: FileOutcome): RegistryFile {
  if (!outcome.ok) throw new Error(`expected a valid file, got:\n${outcome.problems.map(formatProblem).join('\n')}`);
  return outcome.value;
}

/** The problems of a file, formatted as the CLI prints them; fails the test when the file is valid. */
function problemsOf(text: string): string[] {
  const outcome = parseRegistryFile(text, 'f.yaml');
  if (outcome.ok) throw new Error('expected problems, but the file is valid');
  return outcome.problems.map(formatProblem);
}

const lines = (...l: string[]) => `${l.join('\n')}\n`;

describe('registry files: parse, validate, map', () => {
  describe('mapping a tool to RegisterToolInput', () => {
    it("maps the seed's Mixed Bindings example: snake_case keys to camelCase, lowercase values to the GraphQL enums", () => {
      const entries = entriesOf(
        lines(
          'name: demo/mixed',
          'description: mixed',
          'resource_slots:',
          '  - name: repo',
          '    resource_type: git-checkout',
          '    access: read_write',
          '    binding: contextual',
          '  - name: config',
          '    resource_type: fs-directory',
          '    access: read_only',
          '    binding: static',
          '    static_resource: local/shared-config',
          '  - name: output',
          '    resource_type: fs-directory',
          '    access: write_only',
          '    binding: parameter',
          '    required: false',
        ),
      );
      expect(entries).to.deep.equal([
        {
          kind: 'tool',
          path: [],
          input: {
            name: 'demo/mixed',
            description: 'mixed',
            resourceSlots: [
              { name: 'repo', resourceType: 'git-checkout', access: 'READ_WRITE', binding: 'CONTEXTUAL' },
              {
                name: 'config',
                resourceType: 'fs-directory',
                access: 'READ_ONLY',
                binding: 'STATIC',
                staticResource: 'local/shared-config',
              },
              {
                name: 'output',
                resourceType: 'fs-directory',
                access: 'WRITE_ONLY',
                binding: 'PARAMETER',
                required: false,
              },
            ],
          },
        },
      ]);
    });

    it("leaves out what the file leaves out, so the server's defaults apply", () => {
      const [entry] = entriesOf(
        lines('name: t', 'resource_slots:', '  - name: repo', '    resource_type: git-checkout'),
      );
      expect(entry.input).to.deep.equal({ name: 't', resourceSlots: [{ name: 'repo', resourceType: 'git-checkout' }] });
    });

    it('reads a list of tools, each with its place in the list', () => {
      const entries = entriesOf(lines('- name: a', '  resource_slots: []', '- name: b', '  resource_slots: []'));
      expect(entries.map((e) => [e.kind, e.path, e.kind === 'tool' ? e.input.name : null])).to.deep.equal([
        ['tool', [0], 'a'],
        ['tool', [1], 'b'],
      ]);
    });

    it('reads an empty list as nothing to register', () => {
      expect(entriesOf('[]\n')).to.deep.equal([]);
    });
  });

  describe('the JSON Schema', () => {
    it('takes its patterns and limits from src/core/grammar.ts', () => {
      expect(TOOL_SCHEMA.properties.name.pattern).to.equal(RESOURCE_NAME_PATTERN.source);
      expect(TOOL_SCHEMA.properties.name.maxLength).to.equal(LIMITS.resourceName);
      expect(TOOL_SCHEMA.properties.resource_slots.maxItems).to.equal(LIMITS.resourceSlots);
      expect(TOOL_SCHEMA.properties.resource_slots.items.properties.name.pattern).to.equal(SLOT_NAME_PATTERN.source);
      expect(TOOL_SCHEMA.properties.resource_slots.items.properties.resource_type.pattern).to.equal(
        TYPE_NAME_PATTERN.source,
      );
      expect(REGISTRY_SCHEMA.properties.resource_types.items.properties.parent_types.maxItems).to.equal(
        LIMITS.parentTypes,
      );
    });

    it('reports an unknown key at its own line and column, with the key it most likely meant', () => {
      expect(
        problemsOf(
          lines(
            'name: t',
            'resource_slots:',
            '  - name: repo',
            '    resource_type: git-checkout',
            '    acces: read_write',
          ),
        ),
      ).to.deep.equal(["f.yaml:5:5: resource_slots[0]: unknown key 'acces' (did you mean 'access'?)"]);
    });

    it('suggests the snake_case key for a camelCase one, and lists the keys when nothing is close', () => {
      expect(
        problemsOf(
          lines('name: t', 'resource_slots:', '  - name: repo', '    resourceType: git-checkout', '    colour: red'),
        ),
      ).to.deep.equal([
        "f.yaml:3:5: resource_slots[0]: missing key 'resource_type'",
        "f.yaml:4:5: resource_slots[0]: unknown key 'resourceType' (did you mean 'resource_type'?)",
        "f.yaml:5:5: resource_slots[0]: unknown key 'colour' (expected name, resource_type, access, binding, static_resource, required)",
      ]);
    });

    it('reports an unknown top-level key of a tool', () => {
      expect(problemsOf(lines('name: t', 'descripton: x', 'resource_slots: []'))).to.deep.equal([
        "f.yaml:2:1: unknown key 'descripton' (did you mean 'description'?)",
      ]);
    });

    it('refuses values outside the lowercase enums, suggesting the lowercase spelling', () => {
      expect(
        problemsOf(
          lines(
            'name: t',
            'resource_slots:',
            '  - name: repo',
            '    resource_type: git-checkout',
            '    access: READ_WRITE',
            '    binding: statik',
          ),
        ),
      ).to.deep.equal([
        "f.yaml:5:13: resource_slots[0].access: 'READ_WRITE' is not one of read_only, read_write, write_only (did you mean 'read_write'?)",
        "f.yaml:6:14: resource_slots[0].binding: 'statik' is not one of contextual, static, parameter (did you mean 'static'?)",
      ]);
    });

    it('refuses a value of the wrong type, and says only that about it', () => {
      expect(
        problemsOf(
          lines(
            'name: 42',
            'resource_slots:',
            '  - name: repo',
            '    resource_type: git-checkout',
            '    required: yes',
          ),
        ),
      ).to.deep.equal([
        'f.yaml:1:7: name: must be a string, not the number 42',
        "f.yaml:5:15: resource_slots[0].required: must be true or false, not the string 'yes'",
      ]);
    });

    it('reports a missing key at the map that lacks it', () => {
      expect(problemsOf(lines('resource_slots:', '  - resource_type: git-checkout'))).to.deep.equal([
        "f.yaml:1:1: missing key 'name'",
        "f.yaml:2:5: resource_slots[0]: missing key 'name'",
      ]);
    });

    it("words grammar breaches as the server's grammar does", () => {
      expect(
        problemsOf(
          lines(
            'name: 01ARZ3NDEKTSV4RRFFQ69G5FAV',
            'resource_slots:',
            '  - name: Repo',
            '    resource_type: Git_Checkout',
            `  - name: ${'s'.repeat(LIMITS.slotName + 1)}`,
            '    resource_type: git-checkout',
            '    static_resource: "bad name"',
          ),
        ),
      ).to.deep.equal([
        'f.yaml:1:7: name: must not have the shape of an id (26 uppercase Crockford base32 characters)',
        'f.yaml:3:11: resource_slots[0].name: must be lowercase letters, digits, "_" and "-", starting with a letter or "_"',
        'f.yaml:4:20: resource_slots[0].resource_type: must be lowercase letters, digits and "-", starting with a letter',
        `f.yaml:5:11: resource_slots[1].name: must be at most ${LIMITS.slotName} characters`,
        'f.yaml:7:22: resource_slots[1].static_resource: must be one or more "/"-separated segments of letters, digits, ".", "_" and "-"',
      ]);
    });

    it('refuses control characters in a description, and more slots than the limit', () => {
      const slots = Array.from({ length: LIMITS.resourceSlots + 1 }, (_, i) => `  - { name: s${i}, resource_type: t }`);
      expect(problemsOf(lines('name: t', 'description: "a\\x07b"', 'resource_slots:', ...slots))).to.deep.equal([
        'f.yaml:2:14: description: must not contain control characters other than tab and line breaks',
        `f.yaml:4:3: resource_slots: must have at most ${LIMITS.resourceSlots} entries`,
      ]);
    });
  });

  describe('YAML syntax', () => {
    it('reports a syntax error with its line and column', () => {
      expect(
        problemsOf(lines('name: t', 'resource_slots:', '  - name: repo', '    resource_type: "git-checkout')),
      ).to.have.length.greaterThan(0);
      const [first] = problemsOf(
        lines('name: t', 'resource_slots:', '- name: a', '  resource_type: x', ' bad: indentation'),
      );
      expect(first).to.match(/^f\.yaml:5:\d+: /);
    });

    it('refuses a key given twice', () => {
      expect(problemsOf(lines('name: a', 'name: b', 'resource_slots: []'))).to.deep.equal([
        'f.yaml:2:1: Map keys must be unique',
      ]);
    });

    it('refuses a second YAML document, pointing at its start', () => {
      expect(problemsOf(lines('name: a', 'resource_slots: []', '---', 'name: b', 'resource_slots: []'))).to.deep.equal([
        'f.yaml:3:1: a file holds one YAML document (a tool, a list of tools, or a registry), but a second one starts here',
      ]);
    });

    it('refuses an empty file, a scalar, and a map that is neither a tool nor a registry', () => {
      expect(problemsOf('')[0]).to.match(/^f\.yaml: the file is empty; expected a tool/);
      expect(problemsOf('hello\n')[0]).to.match(/^f\.yaml:1:1: expected a tool .*, not the string 'hello'$/);
      expect(problemsOf('foo: 1\n')[0]).to.match(/^f\.yaml:1:1: expected a tool .*; found keys 'foo'$/);
    });
  });

  describe('registry files', () => {
    it('are told by their keys, and give types parents first, then resources, projects, links and tools', () => {
      const entries = entriesOf(
        lines(
          'tools:',
          '  - name: t',
          '    resource_slots: [{ name: repo, resource_type: git-checkout }]',
          'projects:',
          '  - name: demo',
          '    links:',
          '      - { resource: acme/app-repo, alias: repo }',
          '      - { resource: local/shared-config }',
          'resources:',
          '  - { name: acme/app-repo, type: git-checkout, description: repo }',
          'resource_types:',
          '  - { name: tmp-directory, parent_types: [fs-directory] }',
          '  - { name: fs-directory, parent_types: [git-checkout] }',
          '  - name: git-checkout',
          '  - { name: other, parent_types: [already-registered] }',
        ),
      );
      expect(entries.map((e) => [e.kind, e.input])).to.deep.equal([
        ['resourceType', { name: 'git-checkout' }],
        ['resourceType', { name: 'fs-directory', parentTypes: ['git-checkout'] }],
        ['resourceType', { name: 'tmp-directory', parentTypes: ['fs-directory'] }],
        ['resourceType', { name: 'other', parentTypes: ['already-registered'] }],
        ['resource', { name: 'acme/app-repo', type: 'git-checkout', description: 'repo' }],
        ['project', { name: 'demo' }],
        ['link', { project: 'demo', resource: 'acme/app-repo', alias: 'repo' }],
        ['link', { project: 'demo', resource: 'local/shared-config' }],
        ['tool', { name: 't', resourceSlots: [{ name: 'repo', resourceType: 'git-checkout' }] }],
      ]);
    });

    it('refuses parent_types that form a cycle', () => {
      expect(
        problemsOf(
          lines(
            'resource_types:',
            '  - { name: a, parent_types: [b] }',
            '  - { name: b, parent_types: [a] }',
            '  - name: c',
          ),
        ),
      ).to.deep.equal([
        "f.yaml:2:30: resource_types[0].parent_types: parent_types form a cycle (or depend on one) among 'a', 'b'",
        "f.yaml:3:30: resource_types[1].parent_types: parent_types form a cycle (or depend on one) among 'a', 'b'",
      ]);
    });

    it('refuses a name defined twice in one file, pointing at the first', () => {
      expect(problemsOf(lines('resources:', '  - { name: x/a, type: t }', '  - { name: x/a, type: u }'))).to.deep.equal(
        ['f.yaml:3:5: resources[1]: resource x/a is already defined in this file (line 2)'],
      );
      expect(problemsOf(lines('- { name: a, resource_slots: [] }', '- { name: a, resource_slots: [] }'))).to.deep.equal(
        ['f.yaml:2:3: [1]: tool a is already defined in this file (line 1)'],
      );
    });

    it('check their keys like tools do, and a map with a tool key is read as a (misspelt) tool', () => {
      expect(problemsOf(lines('resource_types:', '  - { name: t, parent_type: [u] }'))).to.deep.equal([
        "f.yaml:2:16: resource_types[0]: unknown key 'parent_type' (did you mean 'parent_types'?)",
      ]);
      expect(problemsOf(lines('name: t', 'resources: []'))).to.deep.equal([
        "f.yaml:1:1: missing key 'resource_slots'",
        "f.yaml:2:1: unknown key 'resources' (expected name, description, resource_slots)",
      ]);
    });
  });

  describe('problems the server reports', () => {
    const file = valid(
      parseRegistryFile(
        lines(
          '- name: t',
          '  resource_slots:',
          '    - name: config',
          '      resource_type: fs-directory',
          '      static_resource: acme/app-repo',
          '    - name: config',
          '      resource_type: nope',
        ),
        'f.yaml',
      ),
    );
    const [entry] = file.entries;

    it('places a TOOL_VALIDATION_FAILED problem at the slot field it names, in the file keys', () => {
      expect(
        locateServerProblem(file, entry, { slot: 'config', field: 'staticResource', message: "slot 1 ('config') …" }),
      ).to.deep.equal({
        path: '[0].resource_slots[0].static_resource',
        position: { line: 5, column: 24 },
      });
    });

    it("tells slots of a repeated name apart by the server's slot number", () => {
      expect(
        locateServerProblem(file, entry, {
          slot: 'config',
          field: 'resourceType',
          message: "slot 2 ('config') requires …",
        }).position,
      ).to.deep.equal({ line: 7, column: 22 });
      expect(
        locateServerProblem(file, entry, { slot: 'config', field: 'name', message: "slot 2 ('config') repeats …" })
          .position,
      ).to.deep.equal({ line: 6, column: 13 });
    });

    it('places a BAD_USER_INPUT problem at its input path, falling back to the entry', () => {
      expect(locateServerProblem(file, entry, { field: 'input.resourceSlots[1].resourceType' })).to.deep.equal({
        path: '[0].resource_slots[1].resource_type',
        position: { line: 7, column: 22 },
      });
      expect(locateServerProblem(file, entry, { field: 'input' }).position).to.deep.equal({ line: 1, column: 3 });
    });
  });

  describe('files on disk', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'registry-files-'));
      mkdirSync(join(dir, 'b', 'deeper'), { recursive: true });
      mkdirSync(join(dir, '.hidden'));
      for (const name of ['b/deeper/z.yml', 'b/a.yaml', 'a.YAML', 'notes.txt', '.hidden/h.yaml', '.dot.yaml'])
        writeFileSync(join(dir, name), '[]\n');
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('finds *.yaml and *.yml under a directory at any depth, sorted, leaving out hidden ones', () => {
      expect(findYamlFiles([dir]).files.map((f) => f.slice(dir.length + 1))).to.deep.equal([
        'a.YAML',
        'b/a.yaml',
        'b/deeper/z.yml',
      ]);
    });

    it('takes a named file as it is, and reports a path that does not exist', () => {
      const found = findYamlFiles([join(dir, 'notes.txt'), join(dir, 'missing')]);
      expect(found.files).to.deep.equal([join(dir, 'notes.txt')]);
      expect(found.problems.map((p) => p.message)).to.deep.equal(['cannot read (ENOENT)']);
    });

    it('reads and checks a file, naming it as asked in messages', () => {
      writeFileSync(
        join(dir, 'bad.yaml'),
        lines('name: t', 'resource_slots:', '  - { name: a, resource_type: t, acces: read_only }'),
      );
      const outcome = readRegistryFile(join(dir, 'bad.yaml'), 'tools/bad.yaml');
      expect(outcome.ok ? [] : outcome.problems.map(formatProblem)).to.deep.equal([
        "tools/bad.yaml:3:34: resource_slots[0]: unknown key 'acces' (did you mean 'access'?)",
      ]);
    });
  });

  describe('the shipped examples', () => {
    it("are all valid: the registry, the docs' shop, and one tool per seed example", () => {
      const found = findYamlFiles([join(ROOT, 'examples')]);
      const kinds = found.files.map((f) => [f.slice(ROOT.length + 1), valid(readRegistryFile(f)).kind]);
      expect(kinds).to.deep.equal([
        ['examples/registry.yaml', 'registry'],
        ['examples/shop.yaml', 'registry'],
        ['examples/tools/contextual-repo.yaml', 'tool'],
        ['examples/tools/demo-mixed.yaml', 'tool'],
        ['examples/tools/parameter-target.yaml', 'tool'],
        ['examples/tools/static-config-dir.yaml', 'tool'],
      ]);
    });

    it('are found from src/ and from dist/src/ alike, so the demo data loads in tests and under npm start', () => {
      expect(repositoryRoot(join(ROOT, 'dist', 'src', 'demo'))).to.equal(ROOT);
      expect(repositoryRoot(join(ROOT, 'src', 'demo'))).to.equal(ROOT);
      expect(DEMO_FILES).to.include('examples/registry.yaml');
    });
  });

  describe('suggestions', () => {
    it('match ignoring case, "_" and "-", else within two edits, else nothing', () => {
      expect(suggest('staticResource', ['static_resource', 'required'])).to.equal('static_resource');
      expect(suggest('requried', ['static_resource', 'required'])).to.equal('required');
      expect(suggest('acces', ['access', 'binding'])).to.equal('access');
      expect(suggest('xyz', ['access', 'binding'])).to.equal(null);
      expect(suggest('ab', ['cd'])).to.equal(null);
    });
  });
});
