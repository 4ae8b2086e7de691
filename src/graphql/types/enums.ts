import { registerEnumType } from 'type-graphql';
import type { OutcomeStatus } from '../../core/binding-impact';
import type * as core from '../../core/binding-resolution';
import type { ChangeKind as CoreChangeKind } from '../../core/registry-edit';
import type { Role as CoreRole } from '../../core/access';
import type { FailureReason as CoreFailureReason } from '../../core/errors';
import type { Access as CoreAccess, BindingMode as CoreBindingMode } from '../../core/model';

/**
 * The GraphQL enums, each tied to the core's own union at compile time: an
 * enum object must list exactly the union's values (`satisfies EnumOf<…>`),
 * and its value descriptions must cover them all, so a value added to, or
 * dropped from, the core without the GraphQL side (or the reverse) does not compile.
 */
type EnumOf<U extends string> = { readonly [K in U]: K };
type Described<U extends string> = Record<U, { description: string }>;

export const Access = {
  READ_ONLY: 'READ_ONLY',
  READ_WRITE: 'READ_WRITE',
  WRITE_ONLY: 'WRITE_ONLY',
} as const satisfies EnumOf<CoreAccess>;
export type Access = CoreAccess;

export const BindingMode = {
  CONTEXTUAL: 'CONTEXTUAL',
  STATIC: 'STATIC',
  PARAMETER: 'PARAMETER',
} as const satisfies EnumOf<CoreBindingMode>;
export type BindingMode = CoreBindingMode;

export const SlotStatus = {
  BOUND: 'BOUND',
  DEFERRED: 'DEFERRED',
  UNBOUND_OPTIONAL: 'UNBOUND_OPTIONAL',
  FAILED: 'FAILED',
  ABSENT: 'ABSENT',
} as const satisfies EnumOf<OutcomeStatus>;
export type SlotStatus = OutcomeStatus;

export const ChangeKind = {
  RESOURCE_TYPE: 'RESOURCE_TYPE',
  RESOURCE: 'RESOURCE',
  PROJECT: 'PROJECT',
  LINK: 'LINK',
  TOOL: 'TOOL',
  GRANT: 'GRANT',
  API_TOKEN: 'API_TOKEN',
} as const satisfies EnumOf<CoreChangeKind>;
export type ChangeKind = CoreChangeKind;

export const Role = {
  VIEWER: 'VIEWER',
  EDITOR: 'EDITOR',
  OWNER: 'OWNER',
} as const satisfies EnumOf<CoreRole>;
export type Role = CoreRole;

export const FailureReason = {
  NO_MATCH: 'NO_MATCH',
  AMBIGUOUS: 'AMBIGUOUS',
  TYPE_MISMATCH: 'TYPE_MISMATCH',
  NOT_FOUND: 'NOT_FOUND',
} as const satisfies EnumOf<CoreFailureReason>;
export type FailureReason = CoreFailureReason;

export const BindHow = {
  SINGLE_CANDIDATE: 'SINGLE_CANDIDATE',
  ALIAS: 'ALIAS',
  SHORT_NAME: 'SHORT_NAME',
  STATIC: 'STATIC',
  PARAMETER: 'PARAMETER',
} as const satisfies EnumOf<core.BindHow>;
export type BindHow = core.BindHow;

export const Rejection = {
  TYPE_MISMATCH: 'TYPE_MISMATCH',
  NOT_CHOSEN_ALIAS: 'NOT_CHOSEN_ALIAS',
  NOT_CHOSEN_SHORT_NAME: 'NOT_CHOSEN_SHORT_NAME',
  AMBIGUOUS: 'AMBIGUOUS',
  NOT_FOUND: 'NOT_FOUND',
} as const satisfies EnumOf<core.Rejection>;
export type Rejection = core.Rejection;

registerEnumType(Access, {
  name: 'Access',
  description: 'How a tool may use the resource bound to a slot.',
  valuesConfig: {
    READ_ONLY: { description: 'The tool only reads the resource (the default).' },
    READ_WRITE: { description: 'The tool reads and writes the resource.' },
    WRITE_ONLY: { description: 'The tool only writes the resource.' },
  } satisfies Described<Access>,
});

registerEnumType(BindingMode, {
  name: 'BindingMode',
  description: 'How a slot finds its resource.',
  valuesConfig: {
    CONTEXTUAL: { description: "Found among the project's linked resources by type (the default)." },
    STATIC: { description: 'A fixed registered resource, checked at registration.' },
    PARAMETER: { description: 'Named at invocation; deferred until then.' },
  } satisfies Described<BindingMode>,
});

registerEnumType(SlotStatus, {
  name: 'SlotStatus',
  description: 'What happened to a slot.',
  valuesConfig: {
    BOUND: { description: 'A resource fills the slot.' },
    DEFERRED: { description: 'A PARAMETER slot without a param: bound at invocation.' },
    UNBOUND_OPTIONAL: { description: 'An optional slot with no compatible resource: left empty, not an error.' },
    FAILED: { description: 'The slot cannot be bound; see reason and fix.' },
    ABSENT: {
      description:
        'Only in a BindingChange: the slot does not exist on that side of the change (updateTool added or removed it).',
    },
  } satisfies Described<SlotStatus>,
});

registerEnumType(ChangeKind, {
  name: 'ChangeKind',
  description: 'What a change-log entry is about.',
  valuesConfig: {
    RESOURCE_TYPE: { description: 'A resource type.' },
    RESOURCE: { description: 'A resource.' },
    PROJECT: { description: 'A project.' },
    LINK: { description: "A project's link to a resource (the entry's entity is the project)." },
    TOOL: { description: 'A tool and its slots.' },
    GRANT: {
      description:
        "A role grant, given or revoked (the entry's entityName is the principal). Shown only to OWNERs of its namespace.",
    },
    API_TOKEN: {
      description:
        "An API token, created or revoked (the entry's entityName is its principal, token:<name>). Shown only to OWNERs of its namespace.",
    },
  } satisfies Described<ChangeKind>,
});

registerEnumType(Role, {
  name: 'Role',
  description: 'What a principal may do in a namespace; each role includes the ones before it.',
  valuesConfig: {
    VIEWER: {
      description: 'Reads (it matters only where reads need authentication: READ_TOKEN or READ_AUTH=required).',
    },
    EDITOR: { description: 'Also registers, updates, links, unlinks and deletes what is in the namespace.' },
    OWNER: { description: 'Also grants and revokes roles in the namespace, and creates API tokens for it.' },
  } satisfies Described<Role>,
});

registerEnumType(FailureReason, {
  name: 'FailureReason',
  description: 'Why a slot could not be bound, as in resolveBindings.',
  valuesConfig: {
    NO_MATCH: { description: 'No linked resource of the slot type (or a sub-type) fills a required slot.' },
    AMBIGUOUS: { description: 'Several linked resources fit, and neither an alias nor a short name picks one.' },
    TYPE_MISMATCH: { description: "The named resource's type does not reach the slot type." },
    NOT_FOUND: { description: 'The named resource (static or parameter) is not registered.' },
  } satisfies Described<FailureReason>,
});

registerEnumType(BindHow, {
  name: 'BindHow',
  description: 'Which rule bound a slot.',
  valuesConfig: {
    SINGLE_CANDIDATE: { description: 'The only compatible linked resource.' },
    ALIAS: { description: 'Among several, the one linked under an alias equal to the slot name.' },
    SHORT_NAME: { description: 'Among several, the one whose short name equals the slot name.' },
    STATIC: { description: "The slot's registered static resource." },
    PARAMETER: { description: 'The resource passed as a param.' },
  } satisfies Described<BindHow>,
});

registerEnumType(Rejection, {
  name: 'Rejection',
  description: 'Why a resource the rule looked at was not the one bound.',
  valuesConfig: {
    TYPE_MISMATCH: { description: "Its type does not reach the slot's type (see typeChain)." },
    NOT_CHOSEN_ALIAS: { description: 'Compatible, but another resource is linked under the alias.' },
    NOT_CHOSEN_SHORT_NAME: { description: 'Compatible, but another resource has the short name.' },
    AMBIGUOUS: { description: 'Compatible and tied with others: nothing picks one.' },
    NOT_FOUND: { description: 'The named resource is not registered.' },
  } satisfies Described<Rejection>,
});
