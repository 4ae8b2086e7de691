/**
 * The registry's tables: their names, column names and constraint names, in
 * one place. The entities, the hand-written SQL, the mapping of constraint
 * errors and the benchmark's generator all take them from here. (The
 * migrations keep their own literal text, because a migration is a record of
 * what was once applied; the migration-drift test checks them against the
 * entities.)
 */
import { ROLES } from '../core/access';
import { ACCESS_MODES, BINDING_MODES } from '../core/model';
import { CHANGE_KINDS } from '../core/registry-edit';

/** A table: its name, its columns (property → column name), and its unique constraints. */
export interface TableDefinition<C extends Record<string, string>> {
  readonly name: string;
  readonly columns: C;
  /** Unique constraints and primary keys: constraint name → the columns it covers, in order. */
  readonly uniques: Readonly<Record<string, readonly string[]>>;
}

function table<const C extends Record<string, string>>(
  name: string,
  columns: C,
  uniques: Record<string, readonly C[keyof C][]>,
): TableDefinition<C> {
  return { name, columns, uniques };
}

/** When a row was created and last updated: ISO-8601 UTC text, the same on both backends, sorting as time does. */
const TIMESTAMPS = { createdAt: 'created_at', updatedAt: 'updated_at' } as const;

export const RESOURCE_TYPE = table(
  'resource_type',
  { id: 'id', name: 'name', description: 'description', ...TIMESTAMPS },
  { pk_resource_type: ['id'], uq_resource_type_name: ['name'] },
);

export const RESOURCE_TYPE_PARENT = table(
  'resource_type_parent',
  { typeId: 'type_id', parentId: 'parent_id', ordinal: 'ordinal' },
  { pk_resource_type_parent: ['type_id', 'parent_id'] },
);

export const RESOURCE = table(
  'resource',
  {
    id: 'id',
    name: 'name',
    nameKey: 'name_key',
    shortName: 'short_name',
    typeId: 'type_id',
    description: 'description',
    ...TIMESTAMPS,
  },
  { pk_resource: ['id'], uq_resource_name_key: ['name_key'] },
);

export const PROJECT = table(
  'project',
  { id: 'id', name: 'name', nameKey: 'name_key', description: 'description', ...TIMESTAMPS },
  { pk_project: ['id'], uq_project_name_key: ['name_key'] },
);

export const PROJECT_RESOURCE = table(
  'project_resource',
  { projectId: 'project_id', resourceId: 'resource_id', alias: 'alias' },
  { pk_project_resource: ['project_id', 'resource_id'], uq_project_resource_alias: ['project_id', 'alias'] },
);

export const TOOL = table(
  'tool',
  { id: 'id', name: 'name', nameKey: 'name_key', description: 'description', ...TIMESTAMPS },
  { pk_tool: ['id'], uq_tool_name_key: ['name_key'] },
);

export const RESOURCE_SLOT = table(
  'resource_slot',
  {
    toolId: 'tool_id',
    ordinal: 'ordinal',
    name: 'name',
    resourceTypeId: 'resource_type_id',
    access: 'access',
    binding: 'binding',
    staticResourceId: 'static_resource_id',
    required: 'required',
  },
  { pk_resource_slot: ['tool_id', 'ordinal'], uq_resource_slot_name: ['tool_id', 'name'] },
);

export const REGISTRY_STATE = table(
  'registry_state',
  { id: 'id', version: 'version', typesVersion: 'types_version', batchKey: 'batch_key', batchVersion: 'batch_version' },
  { pk_registry_state: ['id'] },
);

/** The change log: one row per edit of a committed mutation, ordered by (version, seq). */
export const REGISTRY_CHANGE = table(
  'registry_change',
  {
    id: 'id',
    version: 'version',
    seq: 'seq',
    at: 'at',
    actor: 'actor',
    operation: 'operation',
    kind: 'kind',
    entityId: 'entity_id',
    entityName: 'entity_name',
    previousName: 'previous_name',
    relatedId: 'related_id',
    relatedName: 'related_name',
    summary: 'summary',
    impactCount: 'impact_count',
    impactComplete: 'impact_complete',
    bindingChanges: 'binding_changes',
    namespace: 'namespace',
  },
  { pk_registry_change: ['id'], uq_registry_change_version_seq: ['version', 'seq'] },
);

/** Role grants: a principal holds a role on a namespace (or on `*`), at most one grant per principal and namespace. */
export const ROLE_GRANT = table(
  'role_grant',
  {
    id: 'id',
    principal: 'principal',
    role: 'role',
    namespace: 'namespace',
    grantedBy: 'granted_by',
    createdAt: 'created_at',
  },
  { pk_role_grant: ['id'], uq_role_grant_principal_namespace: ['principal', 'namespace'] },
);

/** API tokens: the SHA-256 digest of each secret, never the secret. Its grants are role grants to `token:<name>`. */
export const API_TOKEN = table(
  'api_token',
  {
    id: 'id',
    name: 'name',
    nameKey: 'name_key',
    secretDigest: 'secret_digest',
    createdBy: 'created_by',
    createdAt: 'created_at',
    expiresAt: 'expires_at',
    lastUsedAt: 'last_used_at',
    revokedAt: 'revoked_at',
  },
  { pk_api_token: ['id'], uq_api_token_name_key: ['name_key'], uq_api_token_secret_digest: ['secret_digest'] },
);

/** Every table, in the order rows may be inserted (referenced tables first). */
export const TABLES = [
  RESOURCE_TYPE,
  RESOURCE_TYPE_PARENT,
  RESOURCE,
  PROJECT,
  PROJECT_RESOURCE,
  TOOL,
  RESOURCE_SLOT,
  REGISTRY_STATE,
  REGISTRY_CHANGE,
  ROLE_GRANT,
  API_TOKEN,
] as const;

/** SQL `IN (…)` list of quoted values, for a CHECK constraint. */
function sqlValues(values: readonly string[]): string {
  return values.map((v) => `'${v}'`).join(', ');
}

/** The CHECK constraint of registry_change.kind, built from the core's list of kinds. */
export const REGISTRY_CHANGE_CHECKS = {
  ck_registry_change_kind: `"kind" IN (${sqlValues(CHANGE_KINDS)})`,
} as const;

/** The CHECK constraint of role_grant.role, built from the core's list of roles. */
export const ROLE_GRANT_CHECKS = {
  ck_role_grant_role: `"role" IN (${sqlValues(ROLES)})`,
} as const;

/** The CHECK constraints of resource_slot, built from the core's own lists of modes. */
export const RESOURCE_SLOT_CHECKS = {
  ck_resource_slot_access: `"access" IN (${sqlValues(ACCESS_MODES)})`,
  ck_resource_slot_binding: `"binding" IN (${sqlValues(BINDING_MODES)})`,
  ck_resource_slot_static: `("binding" = 'STATIC') = ("static_resource_id" IS NOT NULL)`,
} as const;

/** A comma-separated column list, each prefixed with a table alias: `r.id, r.name, …`. */
export function columnList(columns: Record<string, string>, alias?: string): string {
  return Object.values(columns)
    .map((column) => (alias ? `${alias}.${column}` : column))
    .join(', ');
}

// --- Typed rows: what a SELECT of a table's columns returns, keyed by column name. ---

/** The timestamp columns. */
interface TimestampColumns {
  created_at: string;
  updated_at: string;
}

/** A row of resource_type. */
export interface ResourceTypeRow extends TimestampColumns {
  id: string;
  name: string;
  description: string | null;
}

/** A row of resource. */
export interface ResourceRow extends TimestampColumns {
  id: string;
  name: string;
  name_key: string;
  short_name: string;
  type_id: string;
  description: string | null;
}

/** A row of project. */
export interface ProjectRow extends TimestampColumns {
  id: string;
  name: string;
  name_key: string;
  description: string | null;
}

/** A row of tool. */
export interface ToolRow extends TimestampColumns {
  id: string;
  name: string;
  name_key: string;
  description: string | null;
}

/** A row of resource_slot. `required` is 0/1 on SQLite. */
export interface ResourceSlotRow {
  tool_id: string;
  ordinal: number;
  name: string;
  resource_type_id: string;
  access: string;
  binding: string;
  static_resource_id: string | null;
  required: boolean | number;
}

/** A row of project_resource. */
export interface ProjectResourceRow {
  project_id: string;
  resource_id: string;
  alias: string | null;
}

/** A row of registry_state. Counters may come back as strings from some drivers. */
export interface RegistryStateRow {
  version: number | string;
  types_version: number | string;
  /** The last keyed batch's key and version (registerBatch's `key`); read only by the writer. */
  batch_key?: string | null;
  batch_version?: number | string | null;
}

/** A row of registry_change. */
export interface RegistryChangeRow {
  id: string;
  version: number | string;
  seq: number | string;
  at: string;
  actor: string;
  operation: string;
  kind: string;
  entity_id: string;
  entity_name: string;
  previous_name: string | null;
  related_id: string | null;
  related_name: string | null;
  summary: string;
  impact_count: number | string;
  /** 0/1 on SQLite. */
  impact_complete: boolean | number;
  binding_changes: string | null;
  namespace: string | null;
}

/** A row of role_grant. */
export interface RoleGrantRow {
  id: string;
  principal: string;
  role: string;
  namespace: string;
  granted_by: string;
  created_at: string;
}

/** A row of api_token. */
export interface ApiTokenRow {
  id: string;
  name: string;
  name_key: string;
  secret_digest: string;
  created_by: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Compile-time check that a row type has exactly the table's columns. */
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type ColumnsOf<T extends { columns: Record<string, string> }> = T['columns'][keyof T['columns']];
const rowsMatchTables: [
  Exactly<keyof ResourceTypeRow, ColumnsOf<typeof RESOURCE_TYPE>>,
  Exactly<keyof ResourceRow, ColumnsOf<typeof RESOURCE>>,
  Exactly<keyof ProjectRow, ColumnsOf<typeof PROJECT>>,
  Exactly<keyof ToolRow, ColumnsOf<typeof TOOL>>,
  Exactly<keyof ResourceSlotRow, ColumnsOf<typeof RESOURCE_SLOT>>,
  Exactly<keyof ProjectResourceRow, ColumnsOf<typeof PROJECT_RESOURCE>>,
  Exactly<keyof RegistryStateRow, Exclude<ColumnsOf<typeof REGISTRY_STATE>, 'id'>>,
  Exactly<keyof RegistryChangeRow, ColumnsOf<typeof REGISTRY_CHANGE>>,
  Exactly<keyof RoleGrantRow, ColumnsOf<typeof ROLE_GRANT>>,
  Exactly<keyof ApiTokenRow, ColumnsOf<typeof API_TOKEN>>,
] = [true, true, true, true, true, true, true, true, true, true];
void rowsMatchTables;

/**
 * `INSERT INTO <table> (<every column>) VALUES (@<property>, …)`: a statement
 * with named parameters for better-sqlite3, which takes a row keyed by the
 * table's property names (e.g. the benchmark's generator).
 */
export function insertEveryColumn(table: TableDefinition<Record<string, string>>): string {
  const properties = Object.keys(table.columns);
  return `INSERT INTO ${table.name} (${properties.map((p) => table.columns[p]).join(', ')}) VALUES (${properties.map((p) => `@${p}`).join(', ')})`;
}

/** `SELECT <every column> FROM <table>`: rows keyed by column name (the table's row type). */
export function selectEveryColumn(table: TableDefinition<Record<string, string>>): string {
  return `SELECT ${columnList(table.columns)} FROM ${table.name}`;
}
