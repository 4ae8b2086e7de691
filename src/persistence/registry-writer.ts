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
import type { ChangeRecord, ProjectRecord, RegistryState, ResourceRecord, ToolRecord, TypeRecord } from './records';
import { CHANGE_CHANNEL } from './change-listener';
import { RegistryReader } from './registry-reader';
import {
  API_TOKEN,
  columnList,
  PROJECT,
  PROJECT_RESOURCE,
  REGISTRY_CHANGE,
  REGISTRY_STATE,
  RESOURCE_SLOT,
  RESOURCE_TYPE_PARENT,
  type TableDefinition,
} from './tables';

const V = REGISTRY_STATE.columns;
const L = PROJECT_RESOURCE.columns;

/** Rows per INSERT statement of `insertRows`: a longer list takes several statements. */
const ROWS_PER_INSERT = 100;

/** Called with each edit just before the writer makes it (binding impact takes its "before" there). */
export type EditObserver = (edit: RegistryEdit) => Promise<void>;

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
  private readonly recorded: RegistryEdit[] = [];
  private observer: EditObserver | null = null;

  /** `at` stamps every row this transaction creates or updates. */
  constructor(
    private readonly tx: WriteTransaction,
    readonly at: string,
  ) {
    this.reader = new RegistryReader(tx.query, tx.sql);
  }

  /** What this transaction has changed so far, in order. */
  get edits(): readonly RegistryEdit[] {
    return this.recorded;
  }

  /** Sees each edit just before it is made. */
  observe(observer: EditObserver): void {
    this.observer = observer;
  }

  /**
   * Bumps the registry version. Run first in every write transaction: on
   * PostgreSQL the row lock it takes orders writers across instances.
   * Returns the counters with the new version and the types version as it
   * stood before this transaction.
   */
  async bumpVersion(): Promise<RegistryState> {
    await this.tx.query(`UPDATE ${REGISTRY_STATE.name} SET ${V.version} = ${V.version} + 1 WHERE ${V.id} = 1`);
    return this.reader.registryState();
  }

  /**
   * Tells every server instance, on commit, that this version committed
   * (PostgreSQL NOTIFY: delivered only if the transaction commits, in commit
   * order; the payload is just the version, far below NOTIFY's 8,000-byte cap).
   * SQLite has one server per file, which learns of its own commits directly.
   */
  async announce(version: number): Promise<void> {
    if (this.tx.sql.dialect !== 'postgres') return;
    await this.tx.query('SELECT pg_notify(?, ?)', [CHANGE_CHANNEL, String(version)]);
  }

  /** Bumps the counter that moves only when resource types change. */
  async bumpTypesVersion(): Promise<void> {
    await this.tx.query(
      `UPDATE ${REGISTRY_STATE.name} SET ${V.typesVersion} = ${V.typesVersion} + 1 WHERE ${V.id} = 1`,
    );
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

  async insertResource(resource: ResourceInfo): Promise<ResourceRecord> {
    const record = { ...resource, createdAt: this.at, updatedAt: this.at };
    await this.edit({ kind: 'RESOURCE', before: null, after: record }, () =>
      this.tx.manager.insert(ResourceEntity, { ...record, nameKey: nameKey(resource.name) }),
    );
    return record;
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

  async insertProject(project: EntityState): Promise<ProjectRecord> {
    const record = { ...project, createdAt: this.at, updatedAt: this.at };
    await this.edit({ kind: 'PROJECT', before: null, after: record }, () =>
      this.tx.manager.insert(ProjectEntity, { ...record, nameKey: nameKey(project.name) }),
    );
    return record;
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

  async insertLink(link: LinkState): Promise<void> {
    await this.edit({ kind: 'LINK', before: null, after: link }, async () => {
      await this.tx.manager.insert(ProjectResourceEntity, {
        projectId: link.project.id,
        resourceId: link.resource.id,
        alias: link.alias,
      });
      await this.touchProject(link.project.id);
    });
  }

  /** Sets or clears a link's alias. */
  async updateLink(before: LinkState, alias: string | null): Promise<void> {
    await this.edit({ kind: 'LINK', before, after: { ...before, alias } }, async () => {
      await this.tx.manager.update(
        ProjectResourceEntity,
        { projectId: before.project.id, resourceId: before.resource.id },
        { alias },
      );
      await this.touchProject(before.project.id);
    });
  }

  /** Removes a link. */
  async deleteLink(link: LinkState): Promise<void> {
    await this.edit({ kind: 'LINK', before: link, after: null }, async () => {
      await this.tx.query(`DELETE FROM ${PROJECT_RESOURCE.name} WHERE ${L.projectId} = ? AND ${L.resourceId} = ?`, [
        link.project.id,
        link.resource.id,
      ]);
      await this.touchProject(link.project.id);
    });
  }

  // --- tools --------------------------------------------------------------------------

  async insertTool(tool: EntityState, slots: readonly SlotDefinition[]): Promise<ToolRecord> {
    const record = { ...tool, createdAt: this.at, updatedAt: this.at };
    await this.edit({ kind: 'TOOL', before: null, after: { ...record, slots } }, async () => {
      await this.tx.manager.insert(ToolEntity, { ...record, nameKey: nameKey(tool.name) });
      await this.insertSlots(tool.id, slots);
    });
    return record;
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
      await this.insertSlots(after.id, slots);
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
    await this.insertRows(
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
   * Shows the edit to the observer, makes it, and records it; true when made.
   * An update that changes nothing (core/registry-edit.ts's changesNothing)
   * is not made: no row is written, and there is no edit to record.
   */
  private async edit(edit: RegistryEdit, make: () => Promise<unknown>): Promise<boolean> {
    if (changesNothing(edit)) return false;
    await this.observer?.(edit);
    await make();
    this.recorded.push(edit);
    return true;
  }

  private async insertParents(type: TypeNode): Promise<void> {
    await this.insertRows(
      RESOURCE_TYPE_PARENT,
      type.parentIds.map((parentId, ordinal) => ({ typeId: type.id, parentId, ordinal })),
    );
  }

  /** A project's links are part of it: changing them updates the project. */
  private async touchProject(projectId: string): Promise<void> {
    const P = PROJECT.columns;
    await this.tx.query(`UPDATE ${PROJECT.name} SET ${P.updatedAt} = ? WHERE ${P.id} = ?`, [this.at, projectId]);
  }

  private async insertSlots(toolId: string, slots: readonly SlotDefinition[]): Promise<void> {
    await this.insertRows(
      RESOURCE_SLOT,
      slots.map((slot, ordinal) => ({
        toolId,
        ordinal,
        name: slot.name,
        resourceTypeId: slot.typeId,
        access: slot.access,
        binding: slot.binding,
        staticResourceId: slot.staticResourceId,
        required: slot.required,
      })),
    );
  }

  /**
   * Inserts rows with every value bound as a parameter, so that a statement's
   * text depends only on the table and the number of rows. (TypeORM's
   * `insert` on SQLite writes numbers into the text: each change-log entry,
   * with its version, was a statement of its own, prepared for one use; the
   * evicted statements held about 40 MB of SQLite's memory outside the
   * JavaScript heap until they were collected, and it stayed with the
   * process.)
   */
  private async insertRows<C extends Record<string, string>>(
    table: TableDefinition<C>,
    rows: readonly { readonly [K in keyof C]: unknown }[],
  ): Promise<void> {
    const keys = Object.keys(table.columns) as (keyof C & string)[];
    const columns = columnList(table.columns);
    const row = `(${keys.map(() => '?').join(', ')})`;
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      const chunk = rows.slice(start, start + ROWS_PER_INSERT);
      const params = chunk.flatMap((r) => keys.map((key) => this.tx.sql.param(r[key])));
      await this.tx.query(`INSERT INTO ${table.name} (${columns}) VALUES ${chunk.map(() => row).join(', ')}`, params);
    }
  }
}

/** A binding change as the change log stores it: without its id. */
function withoutId({ id: _id, ...change }: IdentifiedChange): BindingChange {
  return change;
}
