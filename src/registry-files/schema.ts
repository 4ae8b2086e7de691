/**
 * The JSON Schemas of tool files and registry files: the seed's snake_case
 * keys, lowercase enum values, and the names, patterns and limits of
 * src/core/grammar.ts (imported, so there is one source). Every object has
 * additionalProperties: false, so a misspelt key is an error.
 *
 * `x-grammar` is an annotation (no validation of its own): it names the
 * grammar rule of a string, so a broken pattern or length can be reported
 * with the grammar's own words rather than as a regular expression.
 */
import {
  CONTROL_CHARACTERS,
  LIMITS,
  RESOURCE_NAME_PATTERN,
  SLOT_NAME_PATTERN,
  TYPE_NAME_PATTERN,
  ULID_PATTERN,
} from '../core/grammar';
import { ACCESS_MODES, BINDING_MODES } from '../core/model';

/** The annotation keyword that names a string's grammar rule. */
export const GRAMMAR_KEYWORD = 'x-grammar';
/** The grammar rules a schema string may name. */
export type GrammarRule = 'typeName' | 'resourceName' | 'slotName' | 'description';

/** The lowercase values files use for access and binding. */
export const ACCESS_VALUES = ACCESS_MODES.map((m) => m.toLowerCase());
export const BINDING_VALUES = BINDING_MODES.map((m) => m.toLowerCase());

/** The top-level keys of a tool, and of a registry file. */
export const TOOL_KEYS = ['name', 'description', 'resource_slots'] as const;
export const REGISTRY_KEYS = ['resource_types', 'resources', 'projects', 'tools'] as const;

/** Anything but the control characters the grammar forbids in free text. */
const NO_CONTROL_CHARACTERS = `^[^${CONTROL_CHARACTERS.source.slice(1, -1)}]*$`;

const typeName = {
  type: 'string',
  minLength: 1,
  maxLength: LIMITS.typeName,
  pattern: TYPE_NAME_PATTERN.source,
  [GRAMMAR_KEYWORD]: 'typeName',
} as const;

const resourceName = {
  type: 'string',
  minLength: 1,
  maxLength: LIMITS.resourceName,
  pattern: RESOURCE_NAME_PATTERN.source,
  not: { type: 'string', pattern: ULID_PATTERN.source },
  [GRAMMAR_KEYWORD]: 'resourceName',
} as const;

const slotName = {
  type: 'string',
  minLength: 1,
  maxLength: LIMITS.slotName,
  pattern: SLOT_NAME_PATTERN.source,
  [GRAMMAR_KEYWORD]: 'slotName',
} as const;

const description = {
  type: 'string',
  maxLength: LIMITS.description,
  pattern: NO_CONTROL_CHARACTERS,
  [GRAMMAR_KEYWORD]: 'description',
} as const;

/** One resource slot, as in the seed. */
export const SLOT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'resource_type'],
  properties: {
    name: slotName,
    resource_type: typeName,
    access: { type: 'string', enum: ACCESS_VALUES },
    binding: { type: 'string', enum: BINDING_VALUES },
    static_resource: resourceName,
    required: { type: 'boolean' },
  },
} as const;

/** A tool: its name, description and slots. */
export const TOOL_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'resource_slots'],
  properties: {
    name: resourceName,
    description,
    resource_slots: { type: 'array', maxItems: LIMITS.resourceSlots, items: SLOT_SCHEMA },
  },
} as const;

/** A file holding a list of tools. */
export const TOOL_LIST_SCHEMA = { type: 'array', items: TOOL_SCHEMA } as const;

/** A registry file: types, resources, projects with their links, and tools; every part optional. */
export const REGISTRY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    resource_types: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: {
          name: typeName,
          description,
          parent_types: { type: 'array', maxItems: LIMITS.parentTypes, items: typeName },
        },
      },
    },
    resources: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'type'],
        properties: { name: resourceName, type: typeName, description },
      },
    },
    projects: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: {
          name: resourceName,
          description,
          links: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['resource'],
              properties: { resource: resourceName, alias: slotName },
            },
          },
        },
      },
    },
    tools: { type: 'array', items: TOOL_SCHEMA },
  },
} as const;

/** The shape of a valid slot, tool and registry file (what the schemas accept). */
export interface SlotDocument {
  name: string;
  resource_type: string;
  access?: string;
  binding?: string;
  static_resource?: string;
  required?: boolean;
}
export interface ToolDocument {
  name: string;
  description?: string;
  resource_slots: SlotDocument[];
}
export interface TypeDocument {
  name: string;
  description?: string;
  parent_types?: string[];
}
export interface ResourceDocument {
  name: string;
  type: string;
  description?: string;
}
export interface LinkDocument {
  resource: string;
  alias?: string;
}
export interface ProjectDocument {
  name: string;
  description?: string;
  links?: LinkDocument[];
}
export interface RegistryDocument {
  resource_types?: TypeDocument[];
  resources?: ResourceDocument[];
  projects?: ProjectDocument[];
  tools?: ToolDocument[];
}
