import type { ResourceInfo, SlotDefinition, TypeNode } from '../core/model';
import type { EntityState, RegistryEdit } from '../core/registry-edit';
import type { WriteTransaction } from './database';
import {
  ProjectEntity,
  ProjectResourceEntity,
  ResourceEntity,
  ResourceSlotEntity,
  ResourceTypeEntity,
  ResourceTypeParentEntity,
  ToolEntity,
} from './entities';
import type { RegistryState } from './records';
import { RegistryReader } from './registry-reader';
import { PROJECT_RESOURCE, REGISTRY_STATE, type ProjectResourceRow } from './tables';

const C = REGISTRY_STATE.columns;
const L = PROJECT_RESOURCE.columns;

/**
 * Writes of the registry, inside one write transaction. Every write method
 * records what it changed as a RegistryEdit (the thing before and after), so
 * a transaction's `edits` say exactly what it did: the one account that
 * versioning, and whatever else follows a change, is built on.
 */
export class RegistryWriter {
  /** Reads that see this transaction's own writes. */
  readonly reader: RegistryReader;
  private readonly recorded: RegistryEdit[] = [];

  constructor(private readonly tx: WriteTransaction) {
    this.reader = new RegistryReader(tx.query, tx.sql);
  }

  /** What this transaction has changed so far, in order. */
  get edits(): readonly RegistryEdit[] {
    return this.recorded;
  }

  /**
   * Bumps the registry version. Run first in every write transaction: on
   * PostgreSQL the row lock it takes orders writers across instances.
   * Returns the counters with the new version and the types version as it
   * stood before this transaction.
   */
  async bumpVersion(): Promise<RegistryState> {
    await this.tx.query(`UPDATE ${REGISTRY_STATE.name} SET ${C.version} = ${C.version} + 1 WHERE ${C.id} = 1`);
    return this.reader.registryState();
  }

  /** Bumps the counter that moves only when resource types change. */
  async bumpTypesVersion(): Promise<void> {
    await this.tx.query(
      `UPDATE ${REGISTRY_STATE.name} SET ${C.typesVersion} = ${C.typesVersion} + 1 WHERE ${C.id} = 1`,
    );
  }

  async insertType(type: TypeNode): Promise<void> {
    await this.tx.manager.insert(ResourceTypeEntity, { id: type.id, name: type.name, description: type.description });
    if (type.parentIds.length > 0) {
      await this.tx.manager.insert(
        ResourceTypeParentEntity,
        type.parentIds.map((parentId, ordinal) => ({ typeId: type.id, parentId, ordinal })),
      );
    }
    this.recorded.push({ kind: 'RESOURCE_TYPE', before: null, after: type });
  }

  /** Removes a resource type and its parent edges. */
  async deleteType(type: TypeNode): Promise<void> {
    await this.tx.manager.delete(ResourceTypeEntity, { id: type.id });
    this.recorded.push({ kind: 'RESOURCE_TYPE', before: type, after: null });
  }

  async insertResource(resource: ResourceInfo): Promise<void> {
    await this.tx.manager.insert(ResourceEntity, { ...resource });
    this.recorded.push({ kind: 'RESOURCE', before: null, after: resource });
  }

  /** Removes a resource and its project links (each recorded as removed). */
  async deleteResource(resource: ResourceInfo): Promise<void> {
    for (const { project, alias } of await this.reader.linkingProjects(resource.id)) {
      this.recorded.push({ kind: 'LINK', before: { project, resource, alias }, after: null });
    }
    // The links go with it (ON DELETE CASCADE).
    await this.tx.manager.delete(ResourceEntity, { id: resource.id });
    this.recorded.push({ kind: 'RESOURCE', before: resource, after: null });
  }

  async insertProject(project: EntityState): Promise<void> {
    await this.tx.manager.insert(ProjectEntity, {
      id: project.id,
      name: project.name,
      description: project.description,
    });
    this.recorded.push({ kind: 'PROJECT', before: null, after: project });
  }

  /** Removes a project and its links (each recorded as removed). */
  async deleteProject(project: EntityState): Promise<void> {
    for (const { resource, alias } of await this.reader.linksByProjectIds([project.id])) {
      this.recorded.push({ kind: 'LINK', before: { project, resource, alias }, after: null });
    }
    // The links go with it (ON DELETE CASCADE).
    await this.tx.manager.delete(ProjectEntity, { id: project.id });
    this.recorded.push({ kind: 'PROJECT', before: project, after: null });
  }

  async insertLink(project: EntityState, resource: ResourceInfo, alias: string | null): Promise<void> {
    await this.tx.manager.insert(ProjectResourceEntity, { projectId: project.id, resourceId: resource.id, alias });
    this.recorded.push({ kind: 'LINK', before: null, after: { project, resource, alias } });
  }

  /** Removes a link; returns whether there was one. */
  async deleteLink(project: EntityState, resource: ResourceInfo): Promise<boolean> {
    const [removed] = await this.tx.query<Pick<ProjectResourceRow, 'alias'>>(
      `DELETE FROM ${PROJECT_RESOURCE.name} WHERE ${L.projectId} = ? AND ${L.resourceId} = ? RETURNING ${L.alias}`,
      [project.id, resource.id],
    );
    if (!removed) return false;
    this.recorded.push({ kind: 'LINK', before: { project, resource, alias: removed.alias }, after: null });
    return true;
  }

  async insertTool(tool: EntityState, slots: readonly SlotDefinition[]): Promise<void> {
    await this.tx.manager.insert(ToolEntity, { id: tool.id, name: tool.name, description: tool.description });
    await this.insertSlots(tool.id, slots);
    this.recorded.push({ kind: 'TOOL', before: null, after: { ...tool, slots } });
  }

  /** Replaces a tool's description and all its slots, keeping its id and name. */
  async replaceTool(
    before: EntityState & { slots: readonly SlotDefinition[] },
    after: EntityState,
    slots: readonly SlotDefinition[],
  ): Promise<void> {
    await this.tx.manager.update(ToolEntity, { id: after.id }, { description: after.description });
    await this.tx.manager.delete(ResourceSlotEntity, { toolId: after.id });
    await this.insertSlots(after.id, slots);
    this.recorded.push({ kind: 'TOOL', before, after: { ...after, slots } });
  }

  /** Removes a tool and its slots. */
  async deleteTool(tool: EntityState & { slots: readonly SlotDefinition[] }): Promise<void> {
    await this.tx.manager.delete(ToolEntity, { id: tool.id });
    this.recorded.push({ kind: 'TOOL', before: tool, after: null });
  }

  private async insertSlots(toolId: string, slots: readonly SlotDefinition[]): Promise<void> {
    if (slots.length === 0) return;
    await this.tx.manager.insert(
      ResourceSlotEntity,
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
}
