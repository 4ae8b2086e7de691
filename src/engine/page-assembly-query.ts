/**
 * The queries of page assembly (./page-assembly.ts): which root fields of a
 * query are connections of items found again by id, the skeleton's form of
 * each, and the part query that computes one item.
 */
import {
  getNullableType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  visit,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import { NAME_INDEX_FIELDS } from '../graphql/selection';

/** The variable and the response key of a part's query; a query declaring either is not assembled. */
export const PART_REF = '__partRef';
export const PART_KEY = '__part';

/** A root field that is a connection of items found again by id (see connectionOfItems). */
export interface ConnectionOfItems {
  readonly connectionKey: string;
  readonly edgesKey: string;
  readonly nodeKey: string;
  /** The root field that finds an item again by its id. */
  readonly byId: string;
  /** The item's selection (`node { … }`). */
  readonly item: SelectionSetNode;
  /** The field as the skeleton asks it: its `node { … }` cut to `node { id }`. */
  readonly skeleton: FieldNode;
}

/**
 * The part query of a connection's items: `{ __part: <byId>(ref: $__partRef) { … } }`
 * with the item's selection, declaring the variables it uses (`used`) and `$__partRef`.
 */
export function partOperation(
  operation: OperationDefinitionNode,
  shape: ConnectionOfItems,
  used: readonly string[],
): OperationDefinitionNode {
  return {
    kind: Kind.OPERATION_DEFINITION,
    operation: operation.operation,
    variableDefinitions: [
      ...(operation.variableDefinitions ?? []).filter((definition) => used.includes(definition.variable.name.value)),
      {
        kind: Kind.VARIABLE_DEFINITION,
        variable: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: PART_REF } },
        type: {
          kind: Kind.NON_NULL_TYPE,
          type: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: 'String' } },
        },
      },
    ],
    directives: [],
    selectionSet: {
      kind: Kind.SELECTION_SET,
      selections: [
        {
          kind: Kind.FIELD,
          alias: { kind: Kind.NAME, value: PART_KEY },
          name: { kind: Kind.NAME, value: shape.byId },
          arguments: [
            {
              kind: Kind.ARGUMENT,
              name: { kind: Kind.NAME, value: 'ref' },
              value: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: PART_REF } },
            },
          ],
          directives: [],
          selectionSet: shape.item,
        },
      ],
    },
  };
}

/**
 * The shape of a root field that is a connection of items found again by
 * id, with the skeleton's form of the field (its `node { … }` cut to
 * `node { id }`); null when it is not one, or not asked plainly.
 */
export function connectionOfItems(
  schema: GraphQLSchema,
  queryType: GraphQLObjectType,
  field: FieldNode,
): ConnectionOfItems | null {
  const definition = queryType.getFields()[field.name.value];
  const connectionType = definition && singleObject(definition.type);
  const connection = field.selectionSet;
  if (!connectionType || !connection || !plainFields(connection) || (field.directives?.length ?? 0) > 0) return null;

  const edgesFields = connection.selections.filter((s): s is FieldNode => (s as FieldNode).name.value === 'edges');
  const edges = edgesFields.length === 1 ? edgesFields[0] : null;
  const edgeType = edges && listOfObjects(connectionType.getFields().edges?.type);
  if (!edges?.selectionSet || !edgeType || !plainFields(edges.selectionSet)) return null;

  const nodeFields = edges.selectionSet.selections.filter(
    (s): s is FieldNode => (s as FieldNode).name.value === 'node',
  );
  const node = nodeFields.length === 1 ? nodeFields[0] : null;
  const nodeDefinition = edgeType.getFields().node;
  const itemType = nodeDefinition && singleObject(nodeDefinition.type);
  if (!node?.selectionSet || !itemType || (node.directives?.length ?? 0) > 0 || (node.arguments?.length ?? 0) > 0)
    return null;
  // An item asked for its id and name alone is read from the page's name index: no part would cost less.
  if (node.selectionSet.selections.every(isNameIndexField)) return null;
  const idType = itemType.getFields().id?.type;
  if (!idType || !isNonNullType(idType) || !isScalarType(idType.ofType) || idType.ofType.name !== 'ID') return null;

  const byId = findById(schema, queryType, itemType);
  if (!byId) return null;

  const idOnly: SelectionSetNode = {
    kind: Kind.SELECTION_SET,
    selections: [{ kind: Kind.FIELD, name: { kind: Kind.NAME, value: 'id' }, arguments: [], directives: [] }],
  };
  const skeletonNode: FieldNode = { ...node, selectionSet: idOnly };
  const skeletonEdges: FieldNode = {
    ...edges,
    selectionSet: {
      ...edges.selectionSet,
      selections: edges.selectionSet.selections.map((s) => (s === node ? skeletonNode : s)),
    },
  };
  return {
    connectionKey: responseKey(field),
    edgesKey: responseKey(edges),
    nodeKey: responseKey(node),
    byId,
    item: node.selectionSet,
    skeleton: {
      ...field,
      selectionSet: {
        ...connection,
        selections: connection.selections.map((s) => (s === edges ? skeletonEdges : s)),
      },
    },
  };
}

/**
 * The root field that finds an item of this type again by its id: named
 * after the type (`tool` for Tool), with one argument `ref: String!` (an id
 * or a name), returning the type; null when there is none.
 */
function findById(schema: GraphQLSchema, queryType: GraphQLObjectType, itemType: GraphQLObjectType): string | null {
  const name = itemType.name.charAt(0).toLowerCase() + itemType.name.slice(1);
  const field = queryType.getFields()[name];
  if (!field || getNullableType(field.type) !== itemType || field.args.length !== 1) return null;
  const [ref] = field.args;
  const refType = ref.type;
  if (ref.name !== 'ref' || !isNonNullType(refType) || refType.ofType !== schema.getType('String')) return null;
  return name;
}

/** A plain field a page by name reads from its index (id, name, __typename), as the resolvers' namesOnly says. */
function isNameIndexField(selection: SelectionNode): boolean {
  return (
    selection.kind === Kind.FIELD &&
    !selection.selectionSet &&
    (selection.arguments?.length ?? 0) === 0 &&
    NAME_INDEX_FIELDS.has(selection.name.value)
  );
}

/** The object type of a field that returns one object (nullable or not), or null. */
function singleObject(type: GraphQLOutputType | undefined): GraphQLObjectType | null {
  if (!type) return null;
  const nullable = getNullableType(type);
  return isObjectType(nullable) ? nullable : null;
}

/** The object type of a field that returns a list of objects, or null. */
function listOfObjects(type: GraphQLOutputType | undefined): GraphQLObjectType | null {
  if (!type) return null;
  const nullable = getNullableType(type);
  if (!isListType(nullable)) return null;
  const item = getNullableType(nullable.ofType);
  return isObjectType(item) ? item : null;
}

/** A selection of fields only (no fragments), none with a directive, and no response key twice. */
function plainFields(set: SelectionSetNode): boolean {
  return (
    set.selections.every((s) => s.kind === Kind.FIELD && (s.directives?.length ?? 0) === 0) && uniqueResponseKeys(set)
  );
}

/** No response key twice (fields the executor would merge are left to it). */
export function uniqueResponseKeys(set: SelectionSetNode): boolean {
  const keys = new Set<string>();
  for (const selection of set.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    const key = responseKey(selection);
    if (keys.has(key)) return false;
    keys.add(key);
  }
  return true;
}

function responseKey(field: FieldNode): string {
  return field.alias?.value ?? field.name.value;
}

/** A document of the operation and the fragments it spreads (at any depth). */
export function withFragments(
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): DocumentNode {
  const used = new Set<string>();
  const spreadIn = (node: OperationDefinitionNode | FragmentDefinitionNode) =>
    visit(node, {
      [Kind.FRAGMENT_SPREAD](spread) {
        const name = spread.name.value;
        const fragment = fragments.get(name);
        if (used.has(name) || !fragment) return;
        used.add(name);
        spreadIn(fragment);
      },
    });
  spreadIn(operation);
  return {
    kind: Kind.DOCUMENT,
    definitions: [operation, ...[...fragments.values()].filter((f) => used.has(f.name.value))],
  };
}

/** The variables a selection uses (through its fragments too), sorted. */
export function variablesUsed(set: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): string[] {
  const names = new Set<string>();
  const seen = new Set<string>();
  const walk = (node: SelectionSetNode | FragmentDefinitionNode) =>
    visit(node, {
      [Kind.VARIABLE](variable) {
        names.add(variable.name.value);
      },
      [Kind.FRAGMENT_SPREAD](spread) {
        const fragment = fragments.get(spread.name.value);
        if (!fragment || seen.has(fragment.name.value)) return;
        seen.add(fragment.name.value);
        walk(fragment);
      },
    });
  walk(set);
  return [...names].sort();
}

/**
 * The kept parts' kind for a part query's text: a short number per distinct
 * text (every plan with the same item selection shares it), since every
 * lookup hashes its key. Texts are kept as long as the process runs; there
 * are as many as distinct item selections compiled (each about a dashboard's
 * query text), and compiled plans are themselves bounded.
 */
export function kindOf(partText: string): string {
  let kind = PART_KINDS.get(partText);
  if (kind === undefined) {
    if (PART_KINDS.size >= MAX_PART_KINDS) PART_KINDS.clear();
    kind = `p${nextPartKind++}`;
    PART_KINDS.set(partText, kind);
  }
  return kind;
}

const PART_KINDS = new Map<string, string>();
/** Past this many distinct part texts the numbering starts over (old numbers are never given again). */
const MAX_PART_KINDS = 10_000;
let nextPartKind = 1;
