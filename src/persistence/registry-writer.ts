import type { BindingChange, IdentifiedChange } from '../core/binding-impact';
import type { ResourceInfo, SlotDefinition, TypeNode } from '../core/model';
import { nameKey } from '../core/names';
import {
  changesNothing,
  type ApiTokenState,
  type EntityState,
  type GrantState,
  type LinkState,
  type RegistryEdit,
  type ToolState,
} from '../core/registry-edit';
import type { WriteTransaction } from './database';
import {
  ApiTokenEntity,
  ProjectEntity,
  ProjectResourceEntity,
  ResourceEntity,
  ResourceSlotEntity,
  ResourceTypeEntity,
  ResourceTypeParentEntity,
  RoleGrantEntity,
  ToolEntity,
} from './entities';
import type { ChangeRecord, ProjectRecord, ResourceRecord, ToolRecord, TypeRecord } from './records';
import { insertManyIfNamesFree, insertRows, insertSlots } from './insert-rows';
import { RegistryReader } from './registry-reader';
import { VersionRow } from './version-row';
import { API_TOKEN, PROJECT, PROJECT_RESOURCE, RESOURCE, TOOL, REGISTRY_CHANGE, RESOURCE_TYPE_PARENT } from './tables';

const L = PROJECT_RESOURCE.columns;

/** Sees each edit just before the writer makes it (binding impact takes its "before" there); edits made together, first all at once. */
export interface EditObserver {
  beforeEdit(edit: RegistryEdit): Promise<void>;
  beforeEdits(edits: readonly RegistryEdit[]): Promise<void>;
}

/**
 * Writes of the registry, inside one write transaction. Every write method
 * records what it changed as a RegistryEdit (the thing before and after), so
 * a transaction's `edits` say exactly what it did: the one account that
 * versioning, the change log, binding impact and events are built on. An
 * observer sees each edit before it is made.
 */
export class RegistryWriter {
  /** Reads that see this transaction's own writes. */
  readonly reader: RegistryReader;
  /** The counters: bumped first in every write transaction (see VersionRow.bump). */
  readonly state: VersionRow;
  private readonly recorded: RegistryEdit[] = [];
  private observer: EditObserver | null = null;
  /** Projects whose time this transaction has set already (touchProjects). */
  private readonly touchedProjects = new Set<string>();

  /** `at` stamps every row this transaction creates or updates. */
  constructor(
    private readonly tx: WriteTransaction,
    readonly at: string,
  ) {
    this.reader = new RegistryReader(tx.query, tx.sql);
    this.state = new VersionRow(tx);
  }

  /** What this transaction has changed so far, in order. */
  get edits(): readonly RegistryEdit[] {
    return this.recorded;
  }

  observe(observer: EditObserver): void {
    this.observer = observer;
  }

  // --- resource types ---------------------------------------------------------------

  async insertType(type: TypeNode): Promise<TypeRecord> {
    const record = { ...type, createdAt: this.at, updatedAt: this.at };
    await this.edit({ kind: 'RESOURCE_TYPE', before: null, after: record }, async () => {
      await this.tx.manager.insert(ResourceTypeEntity, {
        id: type.id,
        name: type.name,
        description: type.description,
        createdAt: this.at,
        updatedAt: this.at,
      });
      await this.insertParents(type);
    });
    return record;
  }

  /** Renames, describes or re-parents a type (its parents are replaced in the order given). */
  async updateType(before: TypeRecord, after: TypeNode): Promise<TypeRecord> {
    const record = { ...after, createdAt: before.createdAt, updatedAt: this.at };
    const made = await this.edit({ kind: 'RESOURCE_TYPE', before, after: record }, async () => {
      await this.tx.manager.update(
        ResourceTypeEntity,
        { id: before.id },
        { name: after.name, description: after.description, updatedAt: this.at },
      );
      if (before.parentIds.join() !== after.parentIds.join()) {
        await this.tx.manager.delete(ResourceTypeParentEntity, { typeId: before.id });
        await this.insertParents(after);
      }
    });
    return made ? record : before;
  }

  /** Removes a resource type and its parent edges. */
  async deleteType(type: TypeNode): Promise<void> {
    await this.edit({ kind: 'RESOURCE_TYPE', before: type, after: null }, () =>
      this.tx.manager.delete(ResourceTypeEntity, { id: type.id }),
    );
  }

  // --- resources ----------------------------------------------------------------------

  /** Adds resources, a hundred a statement, each unless its name (ignoring case) is taken: its record, or null. */
  insertResources(resources: readonly ResourceInfo[]): Promise<(ResourceRecord | null)[]> {
    return this.insertNamed(RESOURCE, resources, (after) => ({ kind: 'RESOURCE', before: null, after }));
  }

  /** Renames, describes or re-types a resource, keeping its id. */
  async updateResource(before: ResourceRecord, after: ResourceInfo): Promise<ResourceRecord> {
    const record = { ...after, createdAt: before.createdAt, updatedAt: this.at };
    const made = await this.edit({ kind: 'RESOURCE', before, after: record }, () =>
      this.tx.manager.update(
        ResourceEntity,
        { id: before.id },
        {
          name: after.name,
          nameKey: nameKey(after.name),
          shortName: after.shortName,
          typeId: after.typeId,
          description: after.description,
          updatedAt: this.at,
        },
      ),
    );
    return made ? record : before;
  }

  /** Removes a resource; any link still left goes with it, each recorded as an unlink. */
  async deleteResource(resource: ResourceInfo): Promise<void> {
    for (const { project, alias } of await this.reader.linkingProjects(resource.id)) {
      await this.deleteLink({ project, resource, alias });
    }
    await this.edit({ kind: 'RESOURCE', before: resource, after: null }, () =>
      this.tx.manager.delete(ResourceEntity, { id: resource.id }),
    );
  }

  // --- projects and links -------------------------------------------------------------

  /** Adds a project; null (nothing written) when its name, ignoring case, is taken. */
  async insertProject(project: EntityState): Promise<ProjectRecord | null> {
    return (await this.insertProjects([project]))[0];
  }

  /** Adds projects as insertResources adds resources. */
  insertProjects(projects: readonly EntityState[]): Promise<(ProjectRecord | null)[]> {
    return this.insertNamed(PROJECT, projects, (after) => ({ kind: 'PROJECT', before: null, after }));
  }

  /** Renames or describes a project, keeping its id. */
  async updateProject(before: ProjectRecord, after: EntityState): Promise<ProjectRecord> {
    const record = { ...after, createdAt: before.createdAt, updatedAt: this.at };
    const made = await this.edit({ kind: 'PROJECT', before, after: record }, () =>
      this.tx.manager.update(
        ProjectEntity,
        { id: before.id },
        { name: after.name, nameKey: nameKey(after.name), description: after.description, updatedAt: this.at },
      ),
    );
    return made ? record : before;
  }

  /** Removes a project; any link still left goes with it, each recorded as an unlink. */
  async deleteProject(project: EntityState): Promise<void> {
    for (const { resource, alias } of await this.reader.linksByProjectIds([project.id])) {
      await this.deleteLink({ project, resource, alias });
    }
    await this.edit({ kind: 'PROJECT', before: project, after: null }, () =>
      this.tx.manager.delete(ProjectEntity, { id: project.id }),
    );
  }

  /** Adds links, in one statement for up to a hundred. */
  async insertLinks(links: readonly LinkState[]): Promise<void> {
    await this.editAll(
      links.map((after) => ({ kind: 'LINK', before: null, after })),
      async () => {
        await insertRows(
          this.tx,
          PROJECT_RESOURCE,
          links.map((link) => ({ projectId: link.project.id, resourceId: link.resource.id, alias: link.alias })),
        );
        await this.touchProjects(links.map((link) => link.project.id));
        return links.map(() => true);
      },
    );
  }

  /** Sets or clears a link's alias. */
  async updateLink(before: LinkState, alias: string | null): Promise<void> {
    await this.edit({ kind: 'LINK', before, after: { ...before, alias } }, async () => {
      await this.tx.manager.update(
        ProjectResourceEntity,
        { projectId: before.project.id, resourceId: before.resource.id },
        { alias },
      );
      await this.touchProjects([before.project.id]);
    });
  }

  /** Removes a link. */
  async deleteLink(link: LinkState): Promise<void> {
    await this.edit({ kind: 'LINK', before: link, after: null }, async () => {
      await this.tx.query(`DELETE FROM ${PROJECT_RESOURCE.name} WHERE ${L.projectId} = ? AND ${L.resourceId} = ?`, [
        link.project.id,
        link.resource.id,
      ]);
      await this.touchProjects([link.project.id]);
    });
  }

  // --- tools --------------------------------------------------------------------------

  /** Adds a tool with its slots; null (nothing written) when its name, ignoring case, is taken. */
  async insertTool(tool: EntityState, slots: readonly SlotDefinition[]): Promise<ToolRecord | null> {
    return (await this.insertTools([{ tool, slots }]))[0];
  }

  /** Adds tools with their slots as insertResources adds resources (the slots of those inserted, after them). */
  insertTools(
    tools: readonly { tool: EntityState; slots: readonly SlotDefinition[] }[],
  ): Promise<(ToolRecord | null)[]> {
    return this.insertNamed(
      TOOL,
      tools.map((t) => t.tool),
      (after, i) => ({ kind: 'TOOL', before: null, after: { ...after, slots: tools[i].slots } }),
      (made) =>
        insertSlots(
          this.tx,
          tools.filter((_, i) => made[i]),
        ),
    );
  }

  /** Replaces a tool's name, description and all its slots, keeping its id. */
  async replaceTool(
    before: ToolRecord & { slots: readonly SlotDefinition[] },
    after: EntityState,
    slots: readonly SlotDefinition[],
  ): Promise<ToolRecord> {
    const record = { ...after, createdAt: before.createdAt, updatedAt: this.at };
    const made = await this.edit({ kind: 'TOOL', before, after: { ...record, slots } }, async () => {
      await this.tx.manager.update(
        ToolEntity,
        { id: after.id },
        { name: after.name, nameKey: nameKey(after.name), description: after.description, updatedAt: this.at },
      );
      await this.tx.manager.delete(ResourceSlotEntity, { toolId: after.id });
      await insertSlots(this.tx, [{ tool: after, slots }]);
    });
    if (made) return record;
    return {
      id: before.id,
      name: before.name,
      description: before.description,
      createdAt: before.createdAt,
      updatedAt: before.updatedAt,
    };
  }

  /** Removes a tool and its slots. */
  async deleteTool(tool: ToolState): Promise<void> {
    await this.edit({ kind: 'TOOL', before: tool, after: null }, () =>
      this.tx.manager.delete(ToolEntity, { id: tool.id }),
    );
  }

  // --- access: grants and API tokens -------------------------------------------------

  /** Gives a principal a role on a namespace. */
  async insertGrant(grant: GrantState): Promise<void> {
    await this.edit({ kind: 'GRANT', before: null, after: grant }, () =>
      this.tx.manager.insert(RoleGrantEntity, { ...grant }),
    );
  }

  /** Takes a grant back. */
  async deleteGrant(grant: GrantState): Promise<void> {
    await this.edit({ kind: 'GRANT', before: grant, after: null }, () =>
      this.tx.manager.delete(RoleGrantEntity, { id: grant.id }),
    );
  }

  /** Stores a new API token by the digest of its secret (the secret itself is never given to the writer). */
  async insertApiToken(token: ApiTokenState, secretDigest: string): Promise<void> {
    await this.edit({ kind: 'API_TOKEN', before: null, after: token }, () =>
      this.tx.manager.insert(ApiTokenEntity, {
        id: token.id,
        name: token.name,
        nameKey: nameKey(token.name),
        secretDigest,
        createdBy: token.createdBy,
        createdAt: token.createdAt,
        expiresAt: token.expiresAt,
        lastUsedAt: null,
        revokedAt: null,
      }),
    );
  }

  /** Marks an API token revoked, now: it authenticates nothing from then on. */
  async revokeApiToken(before: ApiTokenState): Promise<ApiTokenState> {
    const after = { ...before, revokedAt: this.at };
    await this.edit({ kind: 'API_TOKEN', before, after }, () =>
      this.tx.manager.update(ApiTokenEntity, { id: before.id }, { revokedAt: this.at }),
    );
    return after;
  }

  /** When a token last authenticated a request (bookkeeping: no edit, no version). */
  async noteTokenUse(tokenId: string): Promise<void> {
    const K = API_TOKEN.columns;
    await this.tx.query(`UPDATE ${API_TOKEN.name} SET ${K.lastUsedAt} = ? WHERE ${K.id} = ?`, [this.at, tokenId]);
  }

  // --- the change log -----------------------------------------------------------------

  /** Appends entries to the change log, in this transaction. */
  async appendChanges(entries: readonly ChangeRecord[]): Promise<void> {
    await insertRows(
      this.tx,
      REGISTRY_CHANGE,
      entries.map((entry) => ({
        ...entry,
        // Without their ids, which the reader derives again from the entry's (see loggedChangeId).
        bindingChanges: entry.bindingChanges.length > 0 ? JSON.stringify(entry.bindingChanges.map(withoutId)) : null,
      })),
    );
  }

  // --- helpers ------------------------------------------------------------------------

  /**
   * Shows the edit to the observer, makes it, and records it; true when made. An update that changes nothing
   * (core/registry-edit.ts's changesNothing) is not made; `make` answering false made nothing (a name taken).
   */
  private async edit(edit: RegistryEdit, make: () => Promise<unknown>): Promise<boolean> {
    if (changesNothing(edit)) return false;
    const [made] = await this.editAll([edit], async () => [(await make()) !== false]);
    return made;
  }

  /** `edit` for insertions made together: the observer sees each first; `make` says which it made, and those are recorded. */
  private async editAll(edits: readonly RegistryEdit[], make: () => Promise<boolean[]>): Promise<boolean[]> {
    if (edits.length > 1) await this.observer?.beforeEdits(edits);
    for (const edit of edits) await this.observer?.beforeEdit(edit);
    const made = await make();
    for (const [i, edit] of edits.entries()) if (made[i]) this.recorded.push(edit);
    return made;
  }

  private async insertParents(type: TypeNode): Promise<void> {
    await insertRows(
      this.tx,
      RESOURCE_TYPE_PARENT,
      type.parentIds.map((parentId, ordinal) => ({ typeId: type.id, parentId, ordinal })),
    );
  }

  /** Links are part of their project: a link write updates it, once a transaction (all its rows have one time). */
  private async touchProjects(projectIds: readonly string[]): Promise<void> {
    const ids = [...new Set(projectIds)].filter((id) => !this.touchedProjects.has(id));
    if (ids.length === 0) return;
    ids.forEach((id) => this.touchedProjects.add(id));
    const sql = `UPDATE ${PROJECT.name} SET ${PROJECT.columns.updatedAt} = ? WHERE ${this.tx.sql.inList(PROJECT.columns.id)}`;
    await this.tx.query(sql, [this.at, this.tx.sql.listParam(ids)]);
  }

  /**
   * Inserts named things (createdAt and updatedAt now) unless their names are taken, in statements of a hundred,
   * each with its edit (`editOf`); `then` writes what goes with those made (tools' slots). Each one's record, or null.
   */
  private async insertNamed<T extends EntityState>(
    table: typeof RESOURCE | typeof PROJECT | typeof TOOL,
    items: readonly T[],
    editOf: (record: T & Stamped, index: number) => RegistryEdit,
    then?: (made: boolean[]) => Promise<void>,
  ): Promise<((T & Stamped) | null)[]> {
    const records = items.map((item) => ({ ...item, createdAt: this.at, updatedAt: this.at }));
    const made = await this.editAll(records.map(editOf), async () => {
      const rows = records.map((record) => ({ ...record, nameKey: nameKey(record.name) }));
      const ids = await insertManyIfNamesFree(this.tx, table, rows);
      const inserted = records.map((record) => ids.has(record.id));
      await then?.(inserted);
      return inserted;
    });
    return records.map((record, i) => (made[i] ? record : null));
  }
}

/** The times a new row gets. */
type Stamped = { createdAt: string; updatedAt: string };

/** A binding change as the change log stores it: without its id. */
function withoutId({ id: _id, ...change }: IdentifiedChange): BindingChange {
  return change;
}
