import { isIdRef } from './grammar';
import type { TypeNode } from './model';

/**
 * The resource type hierarchy, built from every type and its direct parents.
 *
 * Compatibility follows the seed: a resource of type R satisfies a slot that
 * requires type S when R = S, or when S is reachable from R through
 * `parentTypes`, at any depth. (`fs-directory` lists `git-checkout` as a parent,
 * so an fs-directory resource fills a git-checkout slot; not the reverse.)
 */
export class TypeHierarchy {
  private readonly byIdMap = new Map<string, TypeNode>();
  private readonly byNameMap = new Map<string, TypeNode>();
  private readonly childIds = new Map<string, string[]>();
  private readonly ancestorMemo = new Map<string, readonly TypeNode[]>();
  private readonly ancestorIdMemo = new Map<string, ReadonlySet<string>>();
  private readonly descendantMemo = new Map<string, readonly TypeNode[]>();
  private readonly chainMemo = new Map<string, readonly string[]>();
  private readonly fittingMemo = new Map<string, ReadonlySet<string>>();
  /** Each type's position in byIdMap's order: a small number, for callers that index arrays by type. */
  private readonly indexById = new Map<string, number>();
  private readonly idByIndex: string[] = [];
  private readonly filledMemo: (readonly number[] | undefined)[] = [];

  constructor(types: Iterable<TypeNode>) {
    for (const type of types) {
      this.byIdMap.set(type.id, type);
      this.byNameMap.set(type.name, type);
    }
    for (const type of this.byIdMap.values()) {
      this.indexById.set(type.id, this.idByIndex.length);
      this.idByIndex.push(type.id);
      for (const parentId of type.parentIds) {
        const siblings = this.childIds.get(parentId);
        if (siblings) siblings.push(type.id);
        else this.childIds.set(parentId, [type.id]);
      }
    }
  }

  /** Number of types. */
  get size(): number {
    return this.byIdMap.size;
  }

  /** Every type. */
  all(): TypeNode[] {
    return [...this.byIdMap.values()];
  }

  /** The hierarchy with one type added, replaced (same id) or removed (`type` null). */
  with(id: string, type: TypeNode | null): TypeHierarchy {
    return new TypeHierarchy([...this.all().filter((t) => t.id !== id), ...(type ? [type] : [])]);
  }

  /** The type with this id. */
  byId(id: string): TypeNode | undefined {
    return this.byIdMap.get(id);
  }

  /** The type with this name. */
  byName(name: string): TypeNode | undefined {
    return this.byNameMap.get(name);
  }

  /** The type a ref names: by id when it has an id's shape, else by name. */
  byRef(ref: string): TypeNode | undefined {
    return isIdRef(ref) ? this.byIdMap.get(ref) : this.byNameMap.get(ref);
  }

  /** Direct parents, in declaration order. */
  parentsOf(id: string): TypeNode[] {
    const type = this.byIdMap.get(id);
    return type ? this.nodes(type.parentIds) : [];
  }

  /** Direct sub-types (types that list this one as a parent), ordered by name. */
  subtypesOf(id: string): TypeNode[] {
    return sortByName(this.nodes(this.childIds.get(id) ?? []));
  }

  /**
   * Every type reachable through parentTypes, nearest first: breadth-first,
   * each level in declaration order, each type once.
   */
  ancestorsOf(id: string): readonly TypeNode[] {
    let ancestors = this.ancestorMemo.get(id);
    if (!ancestors) {
      ancestors = this.nodes(this.walk(id, (t) => this.byIdMap.get(t)?.parentIds ?? []));
      this.ancestorMemo.set(id, ancestors);
    }
    return ancestors;
  }

  /** Every type that reaches this one through parentTypes (all sub-types, at any depth), ordered by name. */
  descendantsOf(id: string): readonly TypeNode[] {
    let descendants = this.descendantMemo.get(id);
    if (!descendants) {
      descendants = sortByName(this.nodes(this.walk(id, (t) => this.childIds.get(t) ?? [])));
      this.descendantMemo.set(id, descendants);
    }
    return descendants;
  }

  /** Rule: a resource of type R fills a slot of type S when R = S or S is an ancestor of R. */
  isCompatible(resourceTypeId: string, slotTypeId: string): boolean {
    if (resourceTypeId === slotTypeId) return true;
    return this.ancestorIdsOf(resourceTypeId).has(slotTypeId);
  }

  /**
   * The same rule seen from the slot: the ids of every type whose resources
   * fill a slot of type S (S and its sub-types, at any depth), so that
   * checking many resources against one slot is one lookup each.
   */
  typesFitting(slotTypeId: string): ReadonlySet<string> {
    let ids = this.fittingMemo.get(slotTypeId);
    if (!ids) {
      ids = new Set([slotTypeId, ...this.descendantsOf(slotTypeId).map((t) => t.id)]);
      this.fittingMemo.set(slotTypeId, ids);
    }
    return ids;
  }

  /** A type's index: from 0 to size - 1, or -1 for an unknown type. */
  indexOf(id: string): number {
    return this.indexById.get(id) ?? -1;
  }

  /**
   * The same rule seen from the resource, by index (indexOf): the indexes of
   * every slot type a resource of type R fills (R and its ancestors, nearest
   * first), so that sorting many resources by the slot types they fill is a
   * walk of each one's short list.
   */
  slotTypesFilledBy(resourceTypeIndex: number): readonly number[] {
    let indexes = this.filledMemo[resourceTypeIndex];
    if (indexes === undefined) {
      const ancestors = this.ancestorsOf(this.idByIndex[resourceTypeIndex]);
      indexes = [resourceTypeIndex, ...ancestors.map((t) => this.indexById.get(t.id)!)];
      this.filledMemo[resourceTypeIndex] = indexes;
    }
    return indexes;
  }

  /** The type and its ancestors, by name, nearest first: what a resource of this type can fill. */
  chainOf(id: string): readonly string[] {
    let chain = this.chainMemo.get(id);
    if (!chain) {
      const type = this.byIdMap.get(id);
      chain = type ? [type.name, ...this.ancestorsOf(id).map((t) => t.name)] : [];
      this.chainMemo.set(id, chain);
    }
    return chain;
  }

  /** Rule: giving `typeId` these parents must not make it its own ancestor. */
  wouldCreateCycle(typeId: string, parentIds: readonly string[]): boolean {
    return parentIds.some((parentId) => parentId === typeId || this.ancestorIdsOf(parentId).has(typeId));
  }

  private ancestorIdsOf(id: string): ReadonlySet<string> {
    let ids = this.ancestorIdMemo.get(id);
    if (!ids) {
      ids = new Set(this.ancestorsOf(id).map((t) => t.id));
      this.ancestorIdMemo.set(id, ids);
    }
    return ids;
  }

  /** Breadth-first walk from `start` (excluded), visiting each id once, so a cycle in bad data cannot loop. */
  private walk(start: string, next: (id: string) => readonly string[]): string[] {
    const seen = new Set<string>([start]);
    const order: string[] = [];
    let frontier: readonly string[] = [start];
    while (frontier.length > 0) {
      const following: string[] = [];
      for (const id of frontier) {
        for (const nextId of next(id)) {
          if (seen.has(nextId)) continue;
          seen.add(nextId);
          order.push(nextId);
          following.push(nextId);
        }
      }
      frontier = following;
    }
    return order;
  }

  private nodes(ids: readonly string[]): TypeNode[] {
    const nodes: TypeNode[] = [];
    for (const id of ids) {
      const node = this.byIdMap.get(id);
      if (node) nodes.push(node);
    }
    return nodes;
  }
}

/** Orders by name as plain code points, which for the ASCII name grammar is byte order. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortByName<T extends { name: string }>(items: T[]): T[] {
  return items.sort((a, b) => compareNames(a.name, b.name));
}
