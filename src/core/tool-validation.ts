import type { ToolProblem } from './errors';
import type { Access, BindingMode, ResourceInfo, SlotDefinition, TypeNode } from './model';
import type { TypeHierarchy } from './type-hierarchy';

/** A slot as submitted for registration: types and static resources are refs. */
export interface SlotDraft {
  readonly name: string;
  readonly resourceType: string;
  readonly access?: Access | null;
  readonly binding?: BindingMode | null;
  readonly staticResource?: string | null;
  readonly required?: boolean | null;
}

/** What the static checks need to look up: the type hierarchy, and resources by ref. */
export interface ToolValidationLookups {
  readonly hierarchy: TypeHierarchy;
  typeByRef(ref: string): TypeNode | undefined;
  resourceByRef(ref: string): ResourceInfo | undefined;
}

/** The outcome of the static checks: every problem, and the stored form of the slots when there are none. */
export interface ToolValidationResult {
  readonly problems: ToolProblem[];
  readonly slots: SlotDefinition[];
}

/** A slot draft with the defaults filled in. */
export interface NormalizedSlotDraft {
  readonly name: string;
  readonly resourceType: string;
  readonly access: Access;
  readonly binding: BindingMode;
  readonly staticResource: string | null;
  readonly required: boolean;
}

/**
 * The seed's defaults for what a slot leaves out: READ_ONLY access, CONTEXTUAL
 * binding, no static resource, required. Their one home: registration, the
 * GraphQL input's defaults and the registry files all take them from here.
 */
export const SLOT_DEFAULTS = {
  access: 'READ_ONLY',
  binding: 'CONTEXTUAL',
  staticResource: null,
  required: true,
} as const satisfies Omit<NormalizedSlotDraft, 'name' | 'resourceType'>;

/** A slot draft with the seed's defaults (SLOT_DEFAULTS) filled in. */
export function withDefaults(slot: SlotDraft): NormalizedSlotDraft {
  return {
    name: slot.name,
    resourceType: slot.resourceType,
    access: slot.access ?? SLOT_DEFAULTS.access,
    binding: slot.binding ?? SLOT_DEFAULTS.binding,
    staticResource: slot.staticResource ?? SLOT_DEFAULTS.staticResource,
    required: slot.required ?? SLOT_DEFAULTS.required,
  };
}

/**
 * Runs registration's static checks on every slot and collects all problems:
 * duplicate slot names, unknown slot types, STATIC without a resource, a
 * resource on a non-STATIC slot, an unknown static resource, and a static
 * resource whose type does not fit the slot.
 */
export function validateToolSlots(drafts: readonly SlotDraft[], lookups: ToolValidationLookups): ToolValidationResult {
  const problems: ToolProblem[] = [];
  const slots: SlotDefinition[] = [];
  const firstIndexByName = new Map<string, number>();

  drafts.forEach((draft, index) => {
    const slot = withDefaults(draft);
    const label = `slot ${index + 1} ('${slot.name}')`;

    // Rule: slot names are unique within a tool.
    const firstIndex = firstIndexByName.get(slot.name);
    if (firstIndex === undefined) firstIndexByName.set(slot.name, index);
    else
      problems.push({ slot: slot.name, field: 'name', message: `${label} repeats the name of slot ${firstIndex + 1}` });

    // Rule: the slot's resource type must be registered.
    const type = lookups.typeByRef(slot.resourceType);
    if (!type)
      problems.push({
        slot: slot.name,
        field: 'resourceType',
        message: `${label} requires resource type '${slot.resourceType}', which is not registered`,
      });

    let staticResourceId: string | null = null;
    if (slot.binding === 'STATIC') {
      if (slot.staticResource === null) {
        // Rule: a STATIC slot names its resource.
        problems.push({
          slot: slot.name,
          field: 'staticResource',
          message: `${label} is STATIC but names no staticResource`,
        });
      } else {
        const resource = lookups.resourceByRef(slot.staticResource);
        if (!resource) {
          // Rule: the static resource must be registered.
          problems.push({
            slot: slot.name,
            field: 'staticResource',
            message: `${label} binds resource '${slot.staticResource}', which is not registered`,
          });
        } else if (type && !lookups.hierarchy.isCompatible(resource.typeId, type.id)) {
          // Rule: the static resource's type must fit the slot's type.
          const chain = lookups.hierarchy.chainOf(resource.typeId).join(' → ');
          problems.push({
            slot: slot.name,
            field: 'staticResource',
            message: `${label} requires type '${type.name}', but resource '${resource.name}' has type ${chain}, which does not reach it`,
          });
        } else {
          staticResourceId = resource.id;
        }
      }
    } else if (slot.staticResource !== null) {
      // Rule: only STATIC slots name a static resource.
      problems.push({
        slot: slot.name,
        field: 'staticResource',
        message: `${label} is ${slot.binding}, so it must not name a staticResource`,
      });
    }

    if (type) {
      slots.push({
        name: slot.name,
        typeId: type.id,
        access: slot.access,
        binding: slot.binding,
        staticResourceId,
        required: slot.required,
      });
    }
  });

  return { problems, slots: problems.length === 0 ? slots : [] };
}
