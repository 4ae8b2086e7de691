import { BadInputError, ConflictError, NotFoundError } from '../core/errors';
import type { ResourceInfo, TypeNode } from '../core/model';
import type { Page, PageRequest } from '../persistence/records';
import { newId } from './ids';
import { USED_BY_SHOWN } from './usage';
import type { UsageRef } from '../core/errors';
import type { ReadSession } from './versioning';
import { requireWellFormedRef, type RegistryWrites } from './registry-writes';

/** Input of registerResourceType (already grammar-checked at the edge). */
export interface RegisterResourceTypeCommand {
  readonly name: string;
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
  list(request: PageRequest, session: ReadSession): Promise<Page<Omit<TypeNode, 'parentIds'>>> {
    return session.pageTypes(request);
  }

  /** A page of the resources that fill a slot of this type: the type and every sub-type, at any depth. */
  compatibleResources(
    typeId: string,
    request: Pick<PageRequest, 'first' | 'afterName'>,
    session: ReadSession,
  ): Promise<Page<ResourceInfo>> {
    return session.compatibleResources.load({ typeId, first: request.first, afterName: request.afterName });
  }

  /**
   * Registers a type. Parents must already exist (unknown: NOT_FOUND); a type
   * may not list itself (BAD_USER_INPUT) or a parent twice; the name is unique (CONFLICT).
   */
  async register(command: RegisterResourceTypeCommand, session: ReadSession): Promise<TypeNode> {
    const parentRefs = command.parentTypes ?? [];
    const problems = parentRefs.flatMap((ref, index) => {
      if (ref === command.name)
        return [
          { field: `input.parentTypes[${index}]`, message: `type '${command.name}' cannot list itself as a parent` },
        ];
      const first = parentRefs.indexOf(ref);
      if (first !== index)
        return [
          {
            field: `input.parentTypes[${index}]`,
            message: `parent '${ref}' is listed twice (parentTypes[${first}] and parentTypes[${index}])`,
          },
        ];
      return [];
    });
    if (problems.length > 0) throw new BadInputError(problems);

    return this.writes.change(
      session,
      async ({ writer, hierarchy }) => {
        const types = await hierarchy();
        const parents = parentRefs.map((ref) => types.byRef(ref));
        const unknown = parentRefs.filter((_, i) => !parents[i]);
        if (unknown.length > 0) {
          throw new NotFoundError(
            'resource type',
            unknown[0],
            `parent type${unknown.length > 1 ? 's' : ''} ${unknown.map((r) => `'${r}'`).join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not registered`,
          );
        }
        const parentIds = parents.map((p) => p!.id);
        if (types.byName(command.name))
          throw new ConflictError(`a resource type named '${command.name}' already exists`);
        const type: TypeNode = { id: newId(), name: command.name, description: command.description ?? null, parentIds };
        // Rule: no cycle may form (a new type cannot close one, but the check guards every insert path).
        if (types.wouldCreateCycle(type.id, parentIds))
          throw new BadInputError([{ field: 'input.parentTypes', message: 'these parents would form a cycle' }]);
        await writer.insertType(type);
        return type;
      },
      () => new ConflictError(`a resource type named '${command.name}' already exists`),
    );
  }

  /**
   * Deletes a type. One that resources, sub-types or tool slots use is
   * CONFLICT, listing them in `usedBy`.
   */
  delete(ref: string, session: ReadSession): Promise<boolean> {
    requireWellFormedRef('ref', ref);
    return this.writes.change(
      session,
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
        return true;
      },
      () => new ConflictError(`resource type '${ref}' came into use meanwhile; try again`),
    );
  }
}
