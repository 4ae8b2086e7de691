import { expect } from 'chai';
import { assertInputObjectType } from 'graphql';
import { SLOT_DEFAULTS, withDefaults } from '../../src/core/tool-validation';
import { buildTypeGraphqlSchema } from '../../src/graphql/schema';
import { compareEntry, parseRegistryFile, type StateLookup } from '../../src/registry-files';

/** A slot's defaults are written once, in the core (SLOT_DEFAULTS), and every other reader takes them from there. */
describe('slot defaults: one home', () => {
  it('the GraphQL input ResourceSlotInput defaults to the core’s values', async () => {
    const fields = assertInputObjectType((await buildTypeGraphqlSchema()).getType('ResourceSlotInput')).getFields();
    expect({
      access: fields.access.defaultValue,
      binding: fields.binding.defaultValue,
      required: fields.required.defaultValue,
    }).to.deep.equal({
      access: SLOT_DEFAULTS.access,
      binding: SLOT_DEFAULTS.binding,
      required: SLOT_DEFAULTS.required,
    });
  });

  it('a registry file’s slot that leaves them out is the same as the slot registration stores', () => {
    const parsed = parseRegistryFile(
      'tools:\n  - name: acme/lint\n    resource_slots:\n      - name: repo\n        resource_type: git-checkout\n',
      'registry.yaml',
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const [entry] = parsed.value.entries;
    const stored = withDefaults({ name: 'repo', resourceType: 'git-checkout' });
    const registry = (required: boolean): StateLookup => ({
      resourceType: () => null,
      resource: () => null,
      project: () => null,
      tool: () => ({ name: 'acme/lint', description: null, resourceSlots: [{ ...stored, required }] }),
    });
    expect(compareEntry(entry, registry(SLOT_DEFAULTS.required))).to.deep.equal({ status: 'same' });
    expect(compareEntry(entry, registry(!SLOT_DEFAULTS.required)).status).to.equal('differs');
  });
});
