import { Field, ID, InterfaceType } from 'type-graphql';
import type { RegistryNode } from '../../application/node.service';

/** The GraphQL type of each kind of node. */
const TYPE_NAMES = {
  TOOL: 'Tool',
  RESOURCE: 'Resource',
  RESOURCE_TYPE: 'ResourceType',
  PROJECT: 'Project',
  CHANGE: 'RegistryChange',
  GRANT: 'RoleGrant',
  API_TOKEN: 'ApiToken',
} as const satisfies Record<RegistryNode['kind'], string>;

/** Where a node's kind travels with its record (a symbol: no GraphQL field can read it). */
const KIND = Symbol('node kind');

/** A record with its kind attached, as node and nodes return it. */
export type NodeValue = RegistryNode['record'] & { readonly [KIND]: RegistryNode['kind'] };

/** The value node and nodes return for a node: its record, carrying its kind for resolveType. */
export function nodeValue(node: RegistryNode | null): NodeValue | null {
  return node === null ? null : { ...node.record, [KIND]: node.kind };
}

/** The GraphQL type of a value node or nodes returned: synchronous, from the kind it carries. */
export function nodeTypeName(value: NodeValue): string {
  return TYPE_NAMES[value[KIND]];
}

@InterfaceType({
  description:
    'Anything with an id of its own (Relay Global Object Identification): ids are unique across every type, so `node(id)` finds it again.',
  // type-graphql wraps this in an async function; buildRegistrySchema puts nodeTypeName itself back (see there).
  resolveType: nodeTypeName,
})
export abstract class Node {
  @Field(() => ID, { description: 'Unique across every type, and stable for the life of the object.' })
  id!: string;
}
