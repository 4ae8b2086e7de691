import { expect } from 'chai';
import fc from 'fast-check';
import { checkDescription, LIMITS, RESOURCE_NAME_PATTERN } from '../../src/core/grammar';
import {
  compareEntry,
  conflictMessage,
  formatProblem,
  orderLinkChanges,
  parseRegistryFile,
  registryDocument,
  stringifyDocument,
  toolDocument,
  toolFileName,
  toolNameOfFileName,
  type Entry,
  type RegistryState,
  type StateLookup,
  type ToolState,
} from '../../src/registry-files';

/** A lookup over a whole registry, as the register CLI builds one from what it read. */
function lookupOf(registry: RegistryState): StateLookup {
  const by = <T extends { name: string }>(list: readonly T[]) => {
    const map = new Map(list.map((x) => [x.name, x]));
    return (name: string) => map.get(name) ?? null;
  };
  return {
    resourceType: by(registry.resourceTypes),
    resource: by(registry.resources),
    project: by(registry.projects),
    tool: by(registry.tools),
  };
}

/** The entries of YAML text; fails the test when it does not check out. */
function entriesOf(text: string): Entry[] {
  const outcome = parseRegistryFile(text, 'written.yaml');
  if (!outcome.ok) throw new Error(outcome.problems.map(formatProblem).join('\n'));
  return outcome.value.entries as Entry[];
}

const lines = (...l: string[]) => `${l.join('\n')}\n`;

const MIXED: ToolState = {
  name: 'demo/mixed',
  description: 'The seed\'s "Mixed Bindings" tool',
  resourceSlots: [
    {
      name: 'repo',
      resourceType: 'git-checkout',
      access: 'READ_WRITE',
      binding: 'CONTEXTUAL',
      staticResource: null,
      required: true,
    },
    {
      name: 'config',
      resourceType: 'fs-directory',
      access: 'READ_ONLY',
      binding: 'STATIC',
      staticResource: 'local/shared-config',
      required: true,
    },
    {
      name: 'output',
      resourceType: 'fs-directory',
      access: 'WRITE_ONLY',
      binding: 'PARAMETER',
      staticResource: null,
      required: false,
    },
  ],
};

const DEMO: RegistryState = {
  resourceTypes: [
    { name: 'fs-directory', description: 'A directory.', parentTypes: ['git-checkout'] },
    { name: 'git-checkout', description: null, parentTypes: [] },
  ],
  resources: [
    { name: 'acme/app-repo', type: 'git-checkout', description: null },
    { name: 'local/shared-config', type: 'fs-directory', description: '' },
  ],
  projects: [
    {
      name: 'demo',
      description: 'The seed example project.',
      links: [
        { resource: 'acme/app-repo', alias: 'repo' },
        { resource: 'local/shared-config', alias: null },
      ],
    },
    { name: 'empty', description: null, links: [] },
  ],
  tools: [MIXED],
};

describe('registry files: writing and comparing', () => {
  describe('writing', () => {
    it('writes snake_case keys and lowercase enums, leaving out every field equal to its default', () => {
      expect(stringifyDocument(toolDocument(MIXED))).to.equal(
        lines(
          'name: demo/mixed',
          'description: The seed\'s "Mixed Bindings" tool',
          'resource_slots:',
          '  - name: repo',
          '    resource_type: git-checkout',
          '    access: read_write',
          '  - name: config',
          '    resource_type: fs-directory',
          '    binding: static',
          '    static_resource: local/shared-config',
          '  - name: output',
          '    resource_type: fs-directory',
          '    access: write_only',
          '    binding: parameter',
          '    required: false',
        ),
      );
    });

    it('writes a registry with every section, a blank line between them, and parent_types on one line', () => {
      expect(stringifyDocument(registryDocument({ ...DEMO, tools: undefined }), ['a header'])).to.equal(
        lines(
          '# a header',
          '',
          'resource_types:',
          '  - name: fs-directory',
          '    description: A directory.',
          '    parent_types: [git-checkout]',
          '  - name: git-checkout',
          '',
          'resources:',
          '  - name: acme/app-repo',
          '    type: git-checkout',
          '  - name: local/shared-config',
          '    type: fs-directory',
          '    description: ""',
          '',
          'projects:',
          '  - name: demo',
          '    description: The seed example project.',
          '    links:',
          '      - resource: acme/app-repo',
          '        alias: repo',
          '      - resource: local/shared-config',
          '  - name: empty',
        ),
      );
      const empty = { resourceTypes: [], resources: [], projects: [], tools: [] };
      expect(entriesOf(stringifyDocument(registryDocument(empty)))).to.deep.equal([]);
    });

    it('reads back as entries that are the same as the registry they were written from', () => {
      const entries = entriesOf(stringifyDocument(registryDocument(DEMO)));
      expect(entries.map((e) => e.kind)).to.deep.equal([
        'resourceType',
        'resourceType',
        'resource',
        'resource',
        'project',
        'project',
        'link',
        'link',
        'tool',
      ]);
      for (const entry of entries) expect(compareEntry(entry, lookupOf(DEMO))).to.deep.equal({ status: 'same' });
    });

    it('round-trips any description the grammar allows: unicode, line breaks, blanks at either end, YAML look-alikes', () => {
      const piece = fc.oneof(
        fc.string({ unit: 'grapheme', maxLength: 8 }),
        fc.constantFrom(
          '\n',
          '\r\n',
          '\r',
          '\t',
          ' ',
          '  ',
          '# ',
          ': ',
          '- ',
          '"',
          "'",
          '|',
          '>',
          'yes',
          'null',
          '~',
          '0x1F',
          '1e3',
          '.inf',
          '@',
          '`',
          '{',
          '[',
          '\u2028',
          '\u0085',
          '\uFEFF',
          '\u00A0',
          'é',
          '🎉',
          'مرحبا',
          '%',
          '---',
          '...',
        ),
      );
      const description = fc
        .array(piece, { maxLength: 12 })
        .map((parts) => parts.join(''))
        .filter((text) => checkDescription(text) === null);
      fc.assert(
        fc.property(description, description, (typeText, toolText) => {
          const registry: RegistryState = {
            ...DEMO,
            resourceTypes: [{ name: 't', description: typeText, parentTypes: [] }],
            tools: [{ ...MIXED, description: toolText }],
          };
          for (const entry of entriesOf(stringifyDocument(registryDocument(registry)))) {
            expect(compareEntry(entry, lookupOf(registry))).to.deep.equal({ status: 'same' });
          }
          const [tool] = entriesOf(stringifyDocument(toolDocument(registry.tools[0])));
          expect(tool.kind === 'tool' && tool.input.description).to.equal(toolText);
        }),
        { numRuns: 300, seed: 20261201 },
      );
    });
  });

  describe('tool file names', () => {
    it('write "/" as "--", and escape what would make them ambiguous or hidden', () => {
      const cases: [string, string][] = [
        ['demo/mixed', 'demo--mixed.yaml'],
        ['a-b/c.d_e', 'a-b--c.d_e.yaml'],
        ['a--b/c', 'a%2D%2Db--c.yaml'],
        ['a/b/c', 'a--b--c.yaml'],
        ['-x/y-', '%2Dx--y%2D.yaml'],
        ['.hidden/x', '%2Ehidden--x.yaml'],
        ['../x', '%2E.--x.yaml'],
      ];
      for (const [name, file] of cases) {
        expect(toolFileName(name), name).to.equal(file);
        expect(toolNameOfFileName(file), file).to.equal(name);
      }
      expect(toolNameOfFileName('registry.yaml')).to.equal('registry');
      expect(toolNameOfFileName('a---b.yaml')).to.equal(null);
      expect(toolNameOfFileName('notes.txt')).to.equal(null);
    });

    it('are reversible, never hidden, short enough for any file system, and distinct ignoring case', () => {
      const segment = fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/);
      const name = fc
        .array(segment, { minLength: 1, maxLength: 20 })
        .map((s) => s.join('/'))
        .filter((n) => n.length <= LIMITS.resourceName && RESOURCE_NAME_PATTERN.test(n));
      fc.assert(
        fc.property(name, name, (a, b) => {
          const file = toolFileName(a);
          expect(file).to.match(/^[^./][^/]*\.yaml$/);
          expect(file.length).to.be.at.most(240);
          const back = toolNameOfFileName(file);
          if (back !== null) expect(back).to.equal(a);
          else expect(file).to.contain('~');
          if (a.toLowerCase() !== b.toLowerCase())
            expect(toolFileName(a).toLowerCase()).not.to.equal(toolFileName(b).toLowerCase());
        }),
        { numRuns: 500, seed: 20261202 },
      );
      const long = `${'a-/'.repeat(66)}x`;
      expect(toolFileName(long)).to.match(/~[0-9a-f]{16}\.yaml$/);
      expect(toolNameOfFileName(toolFileName(long))).to.equal(null);
    });
  });

  describe('comparing', () => {
    const compare = (text: string, registry: RegistryState = DEMO) =>
      entriesOf(text).map((entry) => {
        const c = compareEntry(entry, lookupOf(registry));
        return c.status === 'differs' ? { ...c, message: conflictMessage(entry, c.differences) } : c;
      });

    it('takes a field the file leaves out as its default', () => {
      expect(
        compare(
          lines(
            'resource_types: [{ name: git-checkout }]',
            'resources: [{ name: acme/app-repo, type: git-checkout }]',
            'projects: [{ name: empty }]',
            'tools:',
            '  - name: t',
            '    resource_slots: [{ name: s, resource_type: git-checkout }]',
          ),
          {
            ...DEMO,
            tools: [
              {
                name: 't',
                description: null,
                resourceSlots: [
                  {
                    name: 's',
                    resourceType: 'git-checkout',
                    access: 'READ_ONLY',
                    binding: 'CONTEXTUAL',
                    staticResource: null,
                    required: true,
                  },
                ],
              },
            ],
          },
        ).map((c) => c.status),
      ).to.deep.equal(['same', 'same', 'same', 'same']);
    });

    it('says what differs, and gives the update with only those fields (all of a tool)', () => {
      const [type, resource, project, link, tool] = compare(
        lines(
          'resource_types: [{ name: fs-directory, parent_types: [] }]',
          'resources: [{ name: acme/app-repo, type: fs-directory, description: new }]',
          'projects:',
          '  - name: demo',
          '    links: [{ resource: acme/app-repo, alias: code }]',
          'tools:',
          '  - name: demo/mixed',
          '    description: "The seed\'s \\"Mixed Bindings\\" tool"',
          '    resource_slots:',
          '      - { name: repo, resource_type: git-checkout, access: read_only }',
          '      - { name: config, resource_type: fs-directory, binding: static, static_resource: acme/app-repo }',
          '      - { name: output, resource_type: fs-directory, access: write_only, binding: parameter }',
        ),
      );
      expect(type).to.deep.include({
        status: 'differs',
        update: { kind: 'resourceType', input: { ref: 'fs-directory', description: null, parentTypes: [] } },
        message:
          "resource type 'fs-directory' exists and differs (description; parent_types: [git-checkout] → []); use --update to change it",
      });
      expect(resource).to.deep.include({
        update: { kind: 'resource', input: { ref: 'acme/app-repo', type: 'fs-directory', description: 'new' } },
        message:
          "resource 'acme/app-repo' exists and differs (type: git-checkout → fs-directory; description); use --update to change it",
      });
      expect(project).to.deep.include({
        update: { kind: 'project', input: { ref: 'demo', description: null } },
      });
      expect(link).to.deep.include({
        update: { kind: 'link', input: { project: 'demo', resource: 'acme/app-repo', alias: 'code' } },
        message: "link 'demo → acme/app-repo' exists and differs (alias: repo → code); use --update to change it",
      });
      expect(tool).to.deep.include({
        message:
          "tool 'demo/mixed' exists and differs (resource_slots[0].access: read_write → read_only; resource_slots[1].static_resource: local/shared-config → acme/app-repo; resource_slots[2].required: false → true); use --update to change it",
      });
      expect(tool.status === 'differs' && tool.update.kind === 'tool' && tool.update.input.name).to.equal('demo/mixed');
    });

    it('names the slots when the list of slots changed, and finds nothing for what does not exist', () => {
      const [tool, missing, unlinked] = compare(
        lines(
          'projects: [{ name: nowhere, links: [{ resource: acme/app-repo }] }]',
          'tools:',
          '  - { name: demo/mixed, resource_slots: [{ name: repo, resource_type: git-checkout }] }',
        ),
      ).reverse();
      expect(tool).to.deep.include({
        message:
          "tool 'demo/mixed' exists and differs (description; resource_slots: [repo, config, output] → [repo]); use --update to change it",
      });
      expect([missing.status, unlinked.status]).to.deep.equal(['missing', 'missing']);
    });
  });

  describe('ordering link changes', () => {
    const SHOP: RegistryState = {
      resourceTypes: [],
      resources: [],
      tools: [],
      projects: [
        {
          name: 'shop',
          description: null,
          links: [
            { resource: 'prod/orders-db', alias: 'db' },
            { resource: 'prod/users-db', alias: 'users' },
          ],
        },
      ],
    };
    const order = (text: string) =>
      orderLinkChanges(entriesOf(text), lookupOf(SHOP)).map((e) =>
        e.kind === 'link' ? `${e.input.resource}:${e.input.alias ?? '-'}` : e.kind,
      );

    it('moves a link that takes an alias after the change that frees it, keeping everything else in place', () => {
      expect(
        order(
          lines(
            'projects:',
            '  - name: shop',
            '    links:',
            '      - { resource: prod/new-db, alias: users }',
            '      - { resource: prod/users-db, alias: db }',
            '      - { resource: prod/orders-db }',
          ),
        ),
      ).to.deep.equal(['project', 'prod/orders-db:-', 'prod/users-db:db', 'prod/new-db:users']);
    });

    it('keeps the file order of many links none of which waits for another, as when exporting into an empty registry', () => {
      const many = lines(
        'projects:',
        '  - name: big',
        '    links:',
        ...Array.from({ length: 3000 }, (_, i) => `      - { resource: x/r${i}${i % 2 ? `, alias: a${i}` : ''} }`),
      );
      const entries = entriesOf(many);
      const ordered = orderLinkChanges(entries, lookupOf(SHOP));
      expect(ordered).to.deep.equal(entries);
      expect(ordered).to.not.equal(entries);
    });

    it('leaves a swap of aliases in file order', () => {
      expect(
        order(
          lines(
            'projects:',
            '  - name: shop',
            '    links:',
            '      - { resource: prod/users-db, alias: db }',
            '      - { resource: prod/orders-db, alias: users }',
          ),
        ),
      ).to.deep.equal(['project', 'prod/users-db:db', 'prod/orders-db:users']);
    });
  });
});
