import type { LinkedResource, ResourceInfo, SlotDefinition, TypeNode } from '../../src/core/model';
import { shortNameOf } from '../../src/core/grammar';
import { TypeHierarchy } from '../../src/core/type-hierarchy';

/** Builds a hierarchy from `{ child: [parents] }`, using names as ids. */
export function hierarchyOf(parents: Record<string, string[]>): TypeHierarchy {
  const names = new Set<string>(Object.keys(parents));
  for (const list of Object.values(parents)) list.forEach((p) => names.add(p));
  const nodes: TypeNode[] = [...names].map((name) => ({
    id: name,
    name,
    description: null,
    parentIds: parents[name] ?? [],
  }));
  return new TypeHierarchy(nodes);
}

/** A resource whose id is its name, of the given type (type ids are names in these fixtures). */
export function resource(name: string, typeId: string): ResourceInfo {
  return { id: name, name, shortName: shortNameOf(name), typeId, description: null };
}

/** A project link. */
export function link(res: ResourceInfo, alias: string | null = null): LinkedResource {
  return { resource: res, alias };
}

/** A slot with the seed's defaults. */
export function slot(name: string, typeId: string, extra: Partial<SlotDefinition> = {}): SlotDefinition {
  return { name, typeId, access: 'READ_ONLY', binding: 'CONTEXTUAL', staticResourceId: null, required: true, ...extra };
}
