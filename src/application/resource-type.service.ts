import { BadInputError, ConflictError, NotFoundError, type FieldProblem, type UsageRef } from '../core/errors';
import type { TypeNode } from '../core/model';
import type { TypeHierarchy } from '../core/type-hierarchy';
import type { Page, PageRequest, ResourceRecord, TypeRecord, Window } from '../persistence/records';
import { newId } from './ids';
import {
  requireWellFormedRef,
  type ChangeOutcome,
  type ChangeRequest,
  type ChangeStep,
  type RegistryWrites,
  type WriteReader,
} from './registry-writes';
import { USED_BY_SHOWN } from './usage';
import type { ReadSession } from './versioning';

/** Input of registerResourceType (already grammar-checked at the edge). */
export interface RegisterResourceTypeCommand {
  readonly name: string;
  readonly description?: string | null;
  readonly parentTypes?: readonly string[] | null;
}

/** Input of updateResourceType: what is absent (undefined) stays as it is; a null description clears it. */
export interface UpdateResourceTypeCommand {
  readonly ref: string;
  readonly name?: string | null;
  readonly description?: string | null;
  readonly parentTypes?: readonly string[] | null;
}

/** Use cases of resource types. */
export class ResourceTypeService {
  constructor(private readonly writes: RegistryWrites) {}

  /** The type a ref names, or null. */
  async find(ref: string, session: ReadSession): Promise<TypeNode | null> {
    requireWellFormedRef('ref', ref);
    return (await session.hierarchy()).byRef(ref) ?? null;
  }

  /** A page of types by name. */
  list(request: PageRequest, session: ReadSession): Promise<Page<Omit<TypeRecord, 'parentIds'>>> {
    return session.pageTypes(request);
  }

  /** A page of the resources that fill a slot of this type: the type and every sub-type, at any depth. */
  compatibleResources(typeId: string, window: Window<string>, session: ReadSession): Promise<Page<ResourceRecord>> {
    const { size, fromEnd, after, before, count } = window;
    return session.compatibleResources.load({ typeId, window: { size, fromEnd, after, before, count } });
  }

  /**
   * Registers a type. Parents must already exist (unknown: NOT_FOUND); a type
   * may not list itself (BAD_USER_INPUT) or a parent twice; the name is unique (CONFLICT).
   */
  register(command: RegisterResourceTypeCommand, request: ChangeRequest): Promise<ChangeOutcome<TypeRecord>> {
    return this.writes.apply(request, this.registerStep(command));
  }

  /** registerResourceType as a step, alone or in a batch. */
  registerStep(command: RegisterResourceTypeCommand): ChangeStep<TypeRecord> {
    const parentRefs = command.parentTypes ?? [];
    checkParentList(command.name, parentRefs);
    return {
      operation: 'registerResourceType',
      work: async ({ writer, hierarchy }) => {
        const types = await hierarchy();
        const parentIds = parentsOf(types, parentRefs);
        if (types.byName(command.name)) {
          throw new ConflictError(`a resource type named '${command.name}' already exists`);
        }
        const type: TypeNode = { id: newId(), name: command.name, description: command.description ?? null, parentIds };
        // Rule: no cycle may form (a new type cannot close one, but the check guards every insert path).
        if (types.wouldCreateCycle(type.id, parentIds)) {
          throw new BadInputError([{ field: 'input.parentTypes', message: 'these parents would form a cycle' }]);
        }
        return writer.insertType(type);
      },
      onViolation: () => new ConflictError(`a resource type named '${command.name}' already exists`),
      named: [],
    };
  }

  /**
   * Renames, describes or re-parents a type, keeping its id. A new name is
   * unique (CONFLICT); new parents must exist (NOT_FOUND) and may not form a
   * cycle (BAD_USER_INPUT); a change that leaves a static binding with an
   * incompatible resource is CONFLICT, listing the slots in `usedBy`.
   */
  update(command: UpdateResourceTypeCommand, request: ChangeRequest): Promise<ChangeOutcome<TypeRecord>> {
    requireWellFormedRef('input.ref', command.ref);
    return this.writes.change(
      request,
      async ({ writer, hierarchy }) => {
        const types = await hierarchy();
        const type = types.byRef(command.ref) as TypeRecord | undefined;
        if (!type) throw new NotFoundError('resource type', command.ref);
        const name = command.name ?? type.name;
        const holder = types.byName(name);
        if (holder && holder.id !== type.id) throw new ConflictError(`a resource type named '${name}' already exists`);
        let parentIds = type.parentIds;
        if (command.parentTypes != null) {
          checkParentList(type.name, command.parentTypes, type.id);
          parentIds = parentsOf(types, command.parentTypes);
          // Rule: a type may not reach itself through its parents.
          if (types.wouldCreateCycle(type.id, parentIds)) {
            throw new BadInputError([
              {
                field: 'input.parentTypes',
                message: `these parents would make '${type.name}' its own ancestor (a cycle)`,
              },
            ]);
          }
        }
        const updated: TypeNode = {
          id: type.id,
          name,
          description: command.description === undefined ? type.description : command.description,
          parentIds,
        };
        await refuseBrokenStaticBindings(writer.reader, types, updated);
        return writer.updateType(type, updated);
      },
      () => new ConflictError(`a resource type named '${command.name ?? command.ref}' already exists`),
    );
  }

  /**
   * Deletes a type. One that resources, sub-types or tool slots use is
   * CONFLICT, listing them in `usedBy`.
   */
  delete(ref: string, request: ChangeRequest): Promise<ChangeOutcome<string>> {
    requireWellFormedRef('ref', ref);
    return this.writes.change(
      request,
      async ({ writer, hierarchy }) => {
        const types = await hierarchy();
        const type = types.byRef(ref);
        if (!type) throw new NotFoundError('resource type', ref);
        const usedBy: UsageRef[] = [
          ...types
            .subtypesOf(type.id)
            .map((t) => ({ kind: 'RESOURCE_TYPE' as const, name: t.name, detail: 'sub-type' })),
          ...(await writer.reader.resourceNamesOfType(type.id, USED_BY_SHOWN + 1)).map((name) => ({
            kind: 'RESOURCE' as const,
            name,
          })),
          ...(await writer.reader.slotUsesOfType(type.id, USED_BY_SHOWN + 1)).map((u) => ({
            kind: 'TOOL' as const,
            name: u.tool,
            detail: `slot '${u.slot}'`,
          })),
        ];
        if (usedBy.length > 0) {
          throw new ConflictError(
            `resource type '${type.name}' is still used by sub-types, resources or tool slots; remove those first`,
            usedBy.slice(0, USED_BY_SHOWN),
          );
        }
        await writer.deleteType(type);
        return type.id;
      },
      () => new ConflictError(`resource type '${ref}' came into use meanwhile; try again`),
    );
  }
}

/** Rule: a type may not list itself, nor a parent twice (BAD_USER_INPUT, every problem at once). */
function checkParentList(name: string, parentRefs: readonly string[], id?: string): void {
  const problems: FieldProblem[] = [];
  parentRefs.forEach((ref, index) => {
    const field = `input.parentTypes[${index}]`;
    if (ref === name || ref === id) {
      problems.push({ field, message: `type '${name}' cannot list itself as a parent` });
      return;
    }
    const first = parentRefs.indexOf(ref);
    if (first !== index) {
      problems.push({
        field,
        message: `parent '${ref}' is listed twice (parentTypes[${first}] and parentTypes[${index}])`,
      });
    }
  });
  if (problems.length > 0) throw new BadInputError(problems);
}

/** The ids of the parents refs name; any unknown is NOT_FOUND, naming them all. */
function parentsOf(types: TypeHierarchy, parentRefs: readonly string[]): string[] {
  const parents = parentRefs.map((ref) => types.byRef(ref));
  const unknown = parentRefs.filter((_, i) => !parents[i]);
  if (unknown.length > 0) {
    throw new NotFoundError(
      'resource type',
      unknown[0],
      `parent type${unknown.length > 1 ? 's' : ''} ${unknown.map((r) => `'${r}'`).join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not registered`,
    );
  }
  return parents.map((p) => p!.id);
}

/** Rule: a change of parents may not leave a STATIC slot bound to a resource that no longer fits it. */
async function refuseBrokenStaticBindings(
  reader: WriteReader,
  before: TypeHierarchy,
  updated: TypeNode,
): Promise<void> {
  const original = before.byId(updated.id)!;
  if (original.parentIds.join() === updated.parentIds.join()) return;
  const after = before.with(updated.id, updated);
  const reached = [updated.id, ...before.descendantsOf(updated.id).map((t) => t.id)];
  const broken = (await reader.staticSlotsOn([], reached)).filter(
    (s) => !after.isCompatible(s.resourceTypeId, s.slotTypeId),
  );
  if (broken.length === 0) return;
  throw new ConflictError(
    `new parents for '${updated.name}' would leave ${broken.length} static binding${broken.length === 1 ? '' : 's'} with a resource that no longer fits the slot's type; re-register those tools first`,
    broken.slice(0, USED_BY_SHOWN).map((s) => ({
      kind: 'TOOL' as const,
      name: s.tool,
      detail: `slot '${s.slot}' binds '${s.resource}'`,
    })),
  );
}
