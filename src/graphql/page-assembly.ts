import { randomBytes } from 'node:crypto';
import {
  getNullableType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  OperationTypeNode,
  print,
  visit,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import type { AnswerPart, ReadSession } from '../application/versioning';
import { NAME_INDEX_FIELDS } from './selection';

/**
 * Pages of a connection answered from kept parts: the JSON of each item
 * under the page's selection, computed once and used again by every later
 * page, cursor, filter or query text that shows the same item the same way,
 * for as long as nothing the part read has changed.
 *
 * A query qualifies when a root field is a connection of objects that a root
 * field finds by id (`tools { edges { node { … } } }`, the item found again
 * by `tool(ref:)`), asked plainly: no directives or fragments on the way
 * from the root field to `node`, one `edges` and one `node`, no response key
 * twice on that way. The item's own selection (`node { … }`) can be
 * anything but its id and name alone (those come from the page's index
 * anyway). Such a query is compiled twice more:
 *
 * - the **skeleton**: the query itself with each such `node { … }` cut to
 *   `node { id }`, which runs as usual (the page's SQL, its counts, cursors
 *   and page info);
 * - the **part**: `{ __part: tool(ref: $__partRef) { … } }` with the item's
 *   selection and the variables it uses, run once for each item that has no
 *   kept part, all of a page's at once, each in a fork of the request's read
 *   session: their reads are batched together as the whole query's would
 *   be, and what each part read (its dependencies) is its own.
 *
 * A part is kept (ReadSession.keepParts) under its selection's text, the
 * values of the variables that selection uses, and who asks (read or write
 * access), at the request's registry version, with its dependencies; a later
 * request uses it only when no write since touched any of them
 * (ReadSession.parts, the change index that serves the response and record
 * caches). The answer is the skeleton's JSON with each item's part written
 * in its place: JSON.stringify of an object is the same text as its
 * members' JSON put together, so the body is the text graphql-js's answer
 * would serialize to. Whatever does not come out plainly (an error in the
 * skeleton or in any part, an item not found again) returns null, and the
 * caller runs the query as a whole instead.
 */

/** The variable and the response key of a part's query; a query declaring either is not assembled. */
const PART_REF = '__partRef';
const PART_KEY = '__part';

/** The placeholder of an item in the skeleton's JSON (then its number; see markerOf): random per process, so no data can spell it. Then the same with its opening quote, and the newline Apollo ends a body with. */
const MARKER = `@part-${randomBytes(12).toString('hex')}:`;
const MARKER_TEXT = `"${MARKER}`;
const MARKER_START = Buffer.from(MARKER_TEXT);
const NEWLINE = Buffer.from('\n');

/** Compiles a query (graphql-jit), or null when it does not compile. */
export type CompileQuery = (document: DocumentNode, operationName: string | undefined) => CompiledRun | null;

/** What a compiled query offers: one run, with a root value, a context and variables. */
export interface CompiledRun {
  query(
    root: unknown,
    context: unknown,
    variables: Record<string, unknown>,
  ): Promise<ExecutionResult> | ExecutionResult;
}

/** What assembly needs of a request's context. */
export interface AssemblyHost<TContext> {
  /** The request's read session. */
  sessionOf(context: TContext): ReadSession;
  /** The same context with another session (a fork of its own). */
  withSession(context: TContext, session: ReadSession): TContext;
  /** Who asks, as far as an answer can differ by it (read or write access). */
  audienceOf(context: TContext): string;
}

/** What assembling gave: the answer's body, or the parts to compute once the query has run whole. */
export type Assembled =
  | { readonly body: Buffer; readonly fill?: undefined }
  | { readonly body?: undefined; readonly fill: () => Promise<void> };

/** What assembly did so far. */
export interface AssemblyStats {
  /** Answers assembled. */
  assembled: number;
  /** Items whose kept part was used. */
  partsUsed: number;
  /** Items whose part was computed (and kept), after their page ran whole. */
  partsComputed: number;
  /** Requests handed back to be run whole with no part to compute (an error in the skeleton, a clash with the text). */
  declined: number;
}

/** One connection field of the query that is assembled. */
interface PageOfParts {
  /** Where the connection, its edges and each edge's node are in the answer. */
  readonly connectionKey: string;
  readonly edgesKey: string;
  readonly nodeKey: string;
  /** The query that computes one item's part. */
  readonly part: CompiledRun;
  /** The kept parts' kind: the part query's text, hashed. */
  readonly kind: string;
  /** The variables the item's selection uses (their values are part of a part's key). */
  readonly variables: readonly string[];
}

/** A query whose pages are assembled from parts: see the module comment. */
export class PageAssembly<TContext> {
  private constructor(
    private readonly skeleton: CompiledRun,
    private readonly pages: readonly PageOfParts[],
    private readonly host: AssemblyHost<TContext>,
    private readonly stats: AssemblyStats,
  ) {}

  /** The response keys of the connections assembled (for tests). */
  get connections(): readonly string[] {
    return this.pages.map((page) => page.connectionKey);
  }

  /**
   * The assembly of a query, or null when it does not qualify (see the
   * module comment) or its skeleton or parts do not compile.
   */
  static plan<TContext>(
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
    compile: CompileQuery,
    host: AssemblyHost<TContext>,
    stats: AssemblyStats,
  ): PageAssembly<TContext> | null {
    const queryType = schema.getQueryType();
    if (operation.operation !== OperationTypeNode.QUERY || !queryType) return null;
    if (operation.variableDefinitions?.some((definition) => definition.variable.name.value === PART_REF)) return null;
    if (!uniqueResponseKeys(operation.selectionSet)) return null;
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }

    const shapes: { connectionKey: string; edgesKey: string; nodeKey: string; byId: string; item: SelectionSetNode }[] =
      [];
    const selections = operation.selectionSet.selections.map((selection): SelectionNode => {
      const shape = selection.kind === Kind.FIELD ? connectionOfItems(schema, queryType, selection) : null;
      if (!shape) return selection;
      shapes.push(shape);
      return shape.skeleton;
    });
    if (shapes.length === 0) return null;

    const skeletonOperation: OperationDefinitionNode = {
      ...operation,
      selectionSet: { ...operation.selectionSet, selections },
    };
    const skeleton = compile(withFragments(skeletonOperation, fragments), operation.name?.value);
    if (!skeleton) return null;

    const pages: PageOfParts[] = [];
    for (const shape of shapes) {
      // Only what the item's selection uses, so that every query showing items the same way shares their parts.
      const used = variablesUsed(shape.item, fragments);
      const partOperation: OperationDefinitionNode = {
        kind: Kind.OPERATION_DEFINITION,
        operation: operation.operation,
        variableDefinitions: [
          ...(operation.variableDefinitions ?? []).filter((definition) =>
            used.includes(definition.variable.name.value),
          ),
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
      const partDocument = withFragments(partOperation, fragments);
      const part = compile(partDocument, undefined);
      if (!part) return null;
      pages.push({
        connectionKey: shape.connectionKey,
        edgesKey: shape.edgesKey,
        nodeKey: shape.nodeKey,
        part,
        kind: kindOf(print(partDocument)),
        variables: used,
      });
    }
    return new PageAssembly(skeleton, pages, host, stats);
  }

  /**
   * The answer's body, as Apollo sends it (`{"data":…}` and a newline), when
   * every item's part is kept; else what to do once the caller has run the
   * query whole (`fill`: compute and keep the parts the page lacked), or
   * null when the skeleton did not come out plainly.
   *
   * A page with any part missing runs whole, as it would without parts: its
   * page resolver reads what its items need in one batch per kind (the
   * skeleton's page read is the same read, made once per session), so a cold
   * page costs the statements it always did. Its missing parts are then
   * computed from what that run left in the record cache.
   */
  async run(variables: Record<string, unknown>, context: TContext): Promise<Assembled | null> {
    const skeleton = await this.skeleton.query(undefined, context, variables);
    if (skeleton.errors?.length || !skeleton.data) return this.declined();
    const data = skeleton.data as Record<string, unknown>;

    // Every item of every page, in the order its JSON will come.
    const items: { edge: Record<string, unknown>; page: PageOfParts; id: string }[] = [];
    for (const page of this.pages) {
      const edges = (data[page.connectionKey] as Record<string, unknown> | null)?.[page.edgesKey];
      if (!Array.isArray(edges)) continue;
      for (const edge of edges as (Record<string, unknown> | null)[]) {
        const node = edge?.[page.nodeKey] as { id?: unknown } | null | undefined;
        if (!edge || !node) continue;
        if (typeof node.id !== 'string') return this.declined();
        items.push({ edge, page, id: node.id });
      }
    }

    const session = this.host.sessionOf(context);
    const audience = this.host.audienceOf(context);
    const parts: Buffer[] = new Array<Buffer>(items.length);
    const missing: { page: PageOfParts; group: string; id: string }[] = [];
    for (const page of this.pages) {
      // A loop, not flatMap: V8's flatMap takes a slow generic path (4 % of a page's time, measured).
      const mine: number[] = [];
      for (let index = 0; index < items.length; index++) if (items[index].page === page) mine.push(index);
      if (mine.length === 0) continue;
      // Kept by the item's own id (a string that keeps its hash) within a group for the page's kind, audience and values.
      const group = `${page.kind}|${audience}|${valuesOf(page.variables, variables)}`;
      const ids = mine.map((index) => items[index].id);
      const kept = await session.parts(group, ids);
      for (let k = 0; k < mine.length; k++) {
        const found = kept[k];
        if (found) parts[mine[k]] = found.bytes;
        else missing.push({ page, group, id: ids[k] });
      }
    }
    if (missing.length > 0) return { fill: () => this.fill(missing, variables, context, session) };
    this.stats.partsUsed += items.length;

    // The skeleton's JSON with a marker where each item goes, then each marker (a JSON string) replaced by its part.
    items.forEach((item, index) => (item.edge[item.page.nodeKey] = markerOf(index)));
    const text = JSON.stringify({ data });
    const skeletonBytes = Buffer.from(text);
    // An ASCII skeleton (cursors, counts, ids: the usual) has a byte per character, so its markers are found in
    // the string, by a builtin, rather than by a call into C++ for each; any other is searched as bytes.
    const ascii = skeletonBytes.length === text.length;
    const source = ascii ? text : skeletonBytes;
    const find = ascii
      ? (from: number) => text.indexOf(MARKER_TEXT, from)
      : (from: number) => skeletonBytes.indexOf(MARKER_START, from);
    const pieces: Buffer[] = [];
    let from = 0;
    for (let index = 0; index < items.length; index++) {
      // The markers come in item order: the next one found must be this item's, `"<MARKER><index>"`.
      const at = find(from);
      const end = at < 0 ? -1 : endOfMarker(source, at + MARKER_START.length, index);
      if (end < 0) return this.declined();
      pieces.push(skeletonBytes.subarray(from, at), parts[index]);
      from = end;
    }
    if (find(from) >= 0) return this.declined();
    pieces.push(skeletonBytes.subarray(from), NEWLINE);
    this.stats.assembled += 1;
    return { body: Buffer.concat(pieces) };
  }

  /**
   * Computes and keeps the parts a page lacked, after the query ran whole
   * (so their records are in the record cache): all at once, each in a fork
   * of the request's session (the forks share its loaders, so whatever is
   * still to read is read in shared batches), each with its own dependencies.
   * A part that does not come out plainly is not kept.
   */
  private async fill(
    missing: readonly { page: PageOfParts; group: string; id: string }[],
    variables: Record<string, unknown>,
    context: TContext,
    session: ReadSession,
  ): Promise<void> {
    const computed = await Promise.all(
      missing.map((item) => this.computePart(item.page, item.id, variables, context, session)),
    );
    const byGroup = new Map<string, [string, AnswerPart][]>();
    missing.forEach((item, i) => {
      const part = computed[i];
      if (!part) return;
      let keep = byGroup.get(item.group);
      if (!keep) byGroup.set(item.group, (keep = []));
      keep.push([item.id, part]);
      this.stats.partsComputed += 1;
    });
    for (const [group, keep] of byGroup) session.keepParts(group, keep);
  }

  /** One item's part: its selection, run in a fork of the request's session; null when it did not come out plainly. */
  private async computePart(
    page: PageOfParts,
    id: string,
    variables: Record<string, unknown>,
    context: TContext,
    session: ReadSession,
  ): Promise<AnswerPart | null> {
    const fork = await session.fork();
    const result = await page.part.query(undefined, this.host.withSession(context, fork), {
      ...variables,
      [PART_REF]: id,
    });
    const value = result.data?.[PART_KEY];
    if (result.errors?.length || value === null || typeof value !== 'object') return null;
    const dependencies = fork.dependencies();
    session.recordDependencies(dependencies);
    return { bytes: Buffer.from(JSON.stringify(value)), dependencies };
  }

  private declined(): null {
    this.stats.declined += 1;
    return null;
  }
}

/**
 * The shape of a root field that is a connection of items found again by
 * id, with the skeleton's form of the field (its `node { … }` cut to
 * `node { id }`); null when it is not one, or not asked plainly.
 */
function connectionOfItems(
  schema: GraphQLSchema,
  queryType: GraphQLObjectType,
  field: FieldNode,
): {
  connectionKey: string;
  edgesKey: string;
  nodeKey: string;
  byId: string;
  item: SelectionSetNode;
  skeleton: FieldNode;
} | null {
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
function uniqueResponseKeys(set: SelectionSetNode): boolean {
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
function withFragments(
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
function variablesUsed(set: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): string[] {
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
function kindOf(partText: string): string {
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

/**
 * Where the marker of item `index` ends (past its closing quote), its digits
 * starting at `at` in the skeleton's text or bytes; -1 if they are not there.
 */
function endOfMarker(source: string | Buffer, at: number, index: number): number {
  const rest = `${index}"`;
  const found =
    typeof source === 'string' ? source.startsWith(rest, at) : source.toString('latin1', at, at + rest.length) === rest;
  return found ? at + rest.length : -1;
}

/** The markers of the first items, made once (as flat strings, which JSON.stringify copies without joining them first). */
const MARKERS: string[] = [];
const MARKERS_KEPT = 1000;

function markerOf(index: number): string {
  if (index >= MARKERS_KEPT) return `${MARKER}${index}`;
  while (MARKERS.length <= index) MARKERS.push(Buffer.from(`${MARKER}${MARKERS.length}`).toString('latin1'));
  return MARKERS[index];
}

/** The values of the named variables, as a key: an absent one differs from a null one. */
function valuesOf(names: readonly string[], variables: Record<string, unknown>): string {
  return names.length === 0 ? '' : JSON.stringify(names.map((name) => (name in variables ? [variables[name]] : [])));
}
