/**
 * Batched reads of the registry, one class over the read statements of
 * ./reads/ (one module per table or concern: named things, slots and links,
 * pages of resources by type, the change log, what a change can reach, and
 * keyset paging). Every method is one SQL statement (two for a page: the rows
 * and the total), whatever the number of keys, so callers and DataLoaders get
 * fixed statement counts.
 */
import type { ChangeKind } from '../core/registry-edit';
import type {
  AccessVisibility,
  ApiTokenRecord,
  ChangeFilter,
  ChangePageRequest,
  ChangeHead,
  ChangeRecord,
  GrantFilter,
  GrantRecord,
  LinkRecord,
  NamedItem,
  Page,
  PageRequest,
  ProjectRecord,
  RegistryState,
  ResourceRecord,
  SlotRecord,
  ToolRecord,
  TypeRecord,
  Window,
} from './records';
import * as access from './reads/access-reads';
import * as changeLog from './reads/change-log-reads';
import * as impact from './reads/impact-reads';
import { byIds, byRefs, NAMED, pageByName, type NamedTable } from './reads/named-reads';
import * as named from './reads/named-reads';
import type { ReadContext } from './reads/read-context';
import { ofTypes, resourcePagesByTypeSets } from './reads/resource-pages';
import { namedItem, RESOURCE_COLUMNS, toNamed, toResource } from './reads/rows';
import * as relations from './reads/slot-and-link-reads';
import type { QueryFn, SqlDialect } from './sql';
import {
  columnList,
  PROJECT,
  PROJECT_RESOURCE,
  REGISTRY_STATE,
  RESOURCE,
  RESOURCE_SLOT,
  RESOURCE_TYPE,
  RESOURCE_TYPE_PARENT,
  TOOL,
  type RegistryStateRow,
  type ResourceTypeRow,
} from './tables';

export type { NamedTable } from './reads/named-reads';
export { pageOf } from './reads/keyset-page';
export { NAME_SCAN_SHARE, scansByName, TYPE_SETS_PER_STATEMENT } from './reads/resource-pages';
export { toResource } from './reads/rows';

const L = PROJECT_RESOURCE.columns;
const S = RESOURCE_SLOT.columns;

/**
 * The registry's reads. Outside a write transaction, only the versioning
 * module holds a reader (src/application/versioning): every read there goes
 * through a request's read session, which pins the registry version first.
 */
export class RegistryReader {
  private readonly db: ReadContext;

  constructor(query: QueryFn, sql: SqlDialect) {
    this.db = { query, sql };
  }

  /** The change counters. */
  async registryState(): Promise<RegistryState> {
    const V = REGISTRY_STATE.columns;
    const [row] = await this.db.query<RegistryStateRow>(
      `SELECT ${V.version}, ${V.typesVersion} FROM ${REGISTRY_STATE.name} WHERE ${V.id} = 1`,
    );
    return { version: Number(row.version), typesVersion: Number(row.types_version) };
  }

  /** Every type with its parents in declaration order. */
  async allTypes(): Promise<TypeRecord[]> {
    const T = RESOURCE_TYPE.columns;
    const P = RESOURCE_TYPE_PARENT.columns;
    const rows = await this.db.query<ResourceTypeRow & { parent_id: string | null }>(
      `SELECT ${columnList(T, 't')}, p.${P.parentId} FROM ${RESOURCE_TYPE.name} t ` +
        `LEFT JOIN ${RESOURCE_TYPE_PARENT.name} p ON p.${P.typeId} = t.${T.id} ORDER BY t.${T.id}, p.${P.ordinal}`,
    );
    const types: TypeRecord[] = [];
    let current: (TypeRecord & { parentIds: string[] }) | null = null;
    for (const row of rows) {
      if (!current || current.id !== row.id) {
        current = { ...toNamed(row), parentIds: [] };
        types.push(current);
      }
      if (row.parent_id !== null) current.parentIds.push(row.parent_id);
    }
    return types;
  }

  // --- named things by id and by ref ----------------------------------------------

  /** Resources by id. */
  async resourcesByIds(ids: readonly string[]): Promise<ResourceRecord[]> {
    return (await byIds(this.db, 'resource', RESOURCE_COLUMNS, ids)).map(toResource);
  }

  /** Resources by ref (id or name). */
  async resourcesByRefs(refs: readonly string[]): Promise<ResourceRecord[]> {
    return (await byRefs(this.db, 'resource', RESOURCE_COLUMNS, refs)).map(toResource);
  }

  /** Tools by id. */
  async toolsByIds(ids: readonly string[]): Promise<ToolRecord[]> {
    return (await byIds(this.db, 'tool', columnList(TOOL.columns, 'r'), ids)).map(toNamed);
  }

  /** Tools by ref. */
  async toolsByRefs(refs: readonly string[]): Promise<ToolRecord[]> {
    return (await byRefs(this.db, 'tool', columnList(TOOL.columns, 'r'), refs)).map(toNamed);
  }

  /** Projects by id. */
  async projectsByIds(ids: readonly string[]): Promise<ProjectRecord[]> {
    return (await byIds(this.db, 'project', columnList(PROJECT.columns, 'r'), ids)).map(toNamed);
  }

  /** Projects by ref. */
  async projectsByRefs(refs: readonly string[]): Promise<ProjectRecord[]> {
    return (await byRefs(this.db, 'project', columnList(PROJECT.columns, 'r'), refs)).map(toNamed);
  }

  /** The thing whose name is `name` ignoring case, if any (names are unique ignoring case). */
  byNameKey(table: Exclude<NamedTable, 'resource_type'>, nameKey: string): Promise<NamedItem | undefined> {
    return named.byNameKey(this.db, table, nameKey);
  }

  /** Names that may be close to `ref`, for "did you mean" (see named-reads.ts). */
  nameCandidates(table: NamedTable, ref: string, around = 25): Promise<string[]> {
    return named.nameCandidates(this.db, table, ref, around);
  }

  // --- slots and links -----------------------------------------------------------

  /** The slots of many tools, each tool's in declaration order. */
  slotsByToolIds(toolIds: readonly string[]): Promise<SlotRecord[]> {
    return relations.slotsByToolIds(this.db, toolIds);
  }

  /** The slots of many tools, as slotsByToolIds, with the resources their static slots bind, in one statement. */
  slotsWithStaticResources(
    toolIds: readonly string[],
  ): Promise<{ slots: SlotRecord[]; staticResources: ResourceRecord[] }> {
    return relations.slotsWithStaticResources(this.db, toolIds);
  }

  /** Tools by ref, with their slots and the resources their static slots bind, in one statement. */
  toolsWithSlotsByRefs(
    refs: readonly string[],
  ): Promise<{ tools: ToolRecord[]; slots: SlotRecord[]; staticResources: ResourceRecord[] }> {
    return relations.toolsWithSlotsByRefs(this.db, refs);
  }

  /** The linked resources of many projects, each project's ordered by resource name. */
  linksByProjectIds(projectIds: readonly string[]): Promise<LinkRecord[]> {
    return relations.linksByProjectIds(this.db, projectIds);
  }

  /** A project's links to a resource or under an alias: what a link or alias write could clash with (at most two). */
  linksClashingWith(projectId: string, resourceId: string, alias: string | null): Promise<LinkRecord[]> {
    return relations.linksClashingWith(this.db, projectId, resourceId, alias);
  }

  /** Tool slots that statically bind a resource, as (tool, slot) names. */
  staticUsesOf(resourceId: string, limit: number): Promise<{ tool: string; slot: string }[]> {
    return relations.slotUses(this.db, S.staticResourceId, resourceId, limit);
  }

  /** Tool slots that require a type, as (tool, slot) names. */
  slotUsesOfType(typeId: string, limit: number): Promise<{ tool: string; slot: string }[]> {
    return relations.slotUses(this.db, S.resourceTypeId, typeId, limit);
  }

  /** Names of resources of a type. */
  resourceNamesOfType(typeId: string, limit: number): Promise<string[]> {
    return relations.resourceNamesOfType(this.db, typeId, limit);
  }

  /** For many resources: the tool slots that bind each statically. */
  staticSlotsByResourceIds(
    resourceIds: readonly string[],
  ): Promise<{ resourceId: string; toolId: string; slot: string }[]> {
    return relations.staticSlotsByResourceIds(this.db, resourceIds);
  }

  /** For many resources: the projects that link each, with the alias. */
  linksByResourceIds(
    resourceIds: readonly string[],
  ): Promise<{ resourceId: string; projectId: string; alias: string | null }[]> {
    return relations.linksByResourceIds(this.db, resourceIds);
  }

  /** The projects that link a resource, with the alias, ordered by project name. */
  linkingProjects(resourceId: string): Promise<{ project: ProjectRecord; alias: string | null }[]> {
    return relations.linkingProjects(this.db, resourceId);
  }

  // --- what a change can reach (binding impact) ----------------------------------

  /** The tools with a CONTEXTUAL slot of one of the types. */
  toolsWithContextualSlotsOf(typeIds: readonly string[]): Promise<(NamedItem & { typeId: string })[]> {
    return impact.toolsWithContextualSlotsOf(this.db, typeIds);
  }

  /** The projects that link a resource of one of the types. */
  projectsLinkingTypes(typeIds: readonly string[]): Promise<NamedItem[]> {
    return impact.projectsLinkingTypes(this.db, typeIds);
  }

  /** The tools with a STATIC slot bound to one of the resources, or to a resource of one of the types. */
  staticBinders(resourceIds: readonly string[], typeIds: readonly string[]): Promise<NamedItem[]> {
    return impact.staticBinders(this.db, resourceIds, typeIds);
  }

  /** The STATIC slots bound to one of the resources, or to a resource of one of the types, with what they need. */
  staticSlotsOn(resourceIds: readonly string[], typeIds: readonly string[]): Promise<impact.StaticSlotUse[]> {
    return impact.staticSlotsOn(this.db, resourceIds, typeIds);
  }

  /** Every project's id and name. */
  allProjects(): Promise<NamedItem[]> {
    return impact.allProjects(this.db);
  }

  // --- the change log ------------------------------------------------------------

  /** A page of the change log, oldest first, and the number of entries the filter matches. */
  pageChanges(filter: ChangeFilter, request: ChangePageRequest): Promise<Page<ChangeRecord>> {
    return changeLog.pageChanges(this.db, filter, request);
  }

  /** Change-log entries by id. */
  changesByIds(ids: readonly string[]): Promise<ChangeRecord[]> {
    return changeLog.changesByIds(this.db, ids);
  }

  /** Change-log entries after a position (version, seq), up to a version, oldest first; at most `limit`. */
  changesAfter(
    after: { readonly version: number; readonly seq: number },
    upToVersion: number,
    limit: number,
  ): Promise<ChangeRecord[]> {
    return changeLog.changesAfter(this.db, after, upToVersion, limit);
  }

  /** Like changesAfter, without the binding changes: the small rows a reader that does not show them needs. */
  changeHeadsAfter(
    after: { readonly version: number; readonly seq: number },
    upToVersion: number,
    limit: number,
  ): Promise<ChangeHead[]> {
    return changeLog.changeHeadsAfter(this.db, after, upToVersion, limit);
  }

  /** The entity of this kind last renamed away from `name`, if the log knows one. */
  renamedFrom(kind: ChangeKind, name: string): Promise<string | undefined> {
    return changeLog.renamedFrom(this.db, kind, name);
  }

  // --- access: grants and API tokens --------------------------------------------

  /** Every grant held by any of these principals (a principal and its groups). */
  grantsOf(principals: readonly string[]): Promise<GrantRecord[]> {
    return access.grantsOf(this.db, principals);
  }

  /** Grants by id. */
  grantsByIds(ids: readonly string[]): Promise<GrantRecord[]> {
    return access.grantsByIds(this.db, ids);
  }

  /** A principal's grant on a namespace, if it has one (there is at most one). */
  grantOn(principal: string, namespace: string): Promise<GrantRecord | undefined> {
    return access.grantOn(this.db, principal, namespace);
  }

  /** A page of grants by id (oldest first), filtered, of those the asker may see. */
  pageGrants(filter: GrantFilter, window: Window<string>): Promise<Page<GrantRecord>> {
    return access.pageGrants(this.db, filter, window);
  }

  /** The API token whose secret has this SHA-256 digest (hex), if any. */
  apiTokenByDigest(digest: string): Promise<ApiTokenRecord | undefined> {
    return access.apiTokenByDigest(this.db, digest);
  }

  /** The API token a ref names: its id, or its name ignoring case. */
  apiTokenByRef(ref: string): Promise<ApiTokenRecord | undefined> {
    return access.apiTokenByRef(this.db, ref);
  }

  /** API tokens by id. */
  apiTokensByIds(ids: readonly string[]): Promise<ApiTokenRecord[]> {
    return access.apiTokensByIds(this.db, ids);
  }

  /** API tokens by name, ignoring case (names are unique that way, revoked tokens included). */
  apiTokensByNames(names: readonly string[]): Promise<ApiTokenRecord[]> {
    return access.apiTokensByNames(this.db, names);
  }

  /** A page of API tokens by id (oldest first) of those the asker may see. */
  pageApiTokens(visible: AccessVisibility, window: Window<string>): Promise<Page<ApiTokenRecord>> {
    return access.pageApiTokens(this.db, visible, window);
  }

  // --- pages by name ---------------------------------------------------------------

  /** One page of resources for each of many keys, each a set of type ids (see resource-pages.ts). */
  resourcePagesByTypeSets(
    sets: readonly { key: string; typeIds: readonly string[] }[],
    window: Window<string>,
    typeCount: number,
  ): Promise<Map<string, Page<ResourceRecord>>> {
    return resourcePagesByTypeSets(this.db, sets, window, typeCount);
  }

  /** Every tool, project or resource by name (ids and names, from the name index alone), in name order. */
  allNames(table: Exclude<NamedTable, 'resource_type'>): Promise<NamedItem[]> {
    return named.allNames(this.db, table);
  }

  /** A page of types by name. */
  pageTypes(request: PageRequest): Promise<Page<Omit<TypeRecord, 'parentIds'>>> {
    return pageByName(this.db, 'resource_type', columnList(RESOURCE_TYPE.columns), request, [], toNamed);
  }

  /** A page of resources by name (ids and names), optionally only of the given types. */
  pageResourceNames(request: PageRequest, typeIds: readonly string[] | null, typeCount = 0): Promise<Page<NamedItem>> {
    const R = RESOURCE.columns;
    const where = typeIds === null ? [] : [ofTypes(this.db, R.typeId, typeIds, typeCount)];
    return pageByName(this.db, 'resource', `${R.id}, ${R.name}`, request, where, namedItem);
  }

  /** A page of projects by name (their records), optionally only those linking a resource. */
  pageProjects(request: PageRequest, linksResourceId: string | null = null): Promise<Page<ProjectRecord>> {
    const { id } = NAMED.project.columns;
    const where =
      linksResourceId === null
        ? []
        : [
            {
              sql: `${id} IN (SELECT ${L.projectId} FROM ${PROJECT_RESOURCE.name} WHERE ${L.resourceId} = ?)`,
              params: [linksResourceId],
            },
          ];
    return pageByName(this.db, 'project', columnList(PROJECT.columns), request, where, toNamed);
  }

  /** A page of tools by name (their records), optionally only those with a slot of one of the types. */
  pageTools(request: PageRequest, slotTypeIds: readonly string[] | null = null): Promise<Page<ToolRecord>> {
    const { id } = NAMED.tool.columns;
    const where =
      slotTypeIds === null
        ? []
        : [
            {
              sql: `${id} IN (SELECT ${S.toolId} FROM ${RESOURCE_SLOT.name} WHERE ${this.db.sql.inList(S.resourceTypeId)})`,
              params: [this.db.sql.listParam(slotTypeIds)],
            },
          ];
    return pageByName(this.db, 'tool', columnList(TOOL.columns), request, where, toNamed);
  }
}
