import {
  Kind,
  OperationTypeNode,
  print,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
} from 'graphql';
import type { ReadSession } from '../application/versioning';
import type { AnswerPart, AnswerPartStore } from './answer-parts';
import { bodyWithParts, markerOf } from './page-assembly-body';
import {
  connectionOfItems,
  kindOf,
  PART_KEY,
  PART_REF,
  partOperation,
  uniqueResponseKeys,
  variablesUsed,
  withFragments,
  type ConnectionOfItems,
} from './page-assembly-query';

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
 * A part is kept (AnswerPartStore.keep, ./answer-parts.ts) under its selection's text, the
 * values of the variables that selection uses, and who asks (read or write
 * access), at the request's registry version, with its dependencies; a later
 * request uses it only when no write since touched any of them
 * (AnswerPartStore.find, checked by the change index that serves the response and record
 * caches). The answer is the skeleton's JSON with each item's part written
 * in its place: JSON.stringify of an object is the same text as its
 * members' JSON put together, so the body is the text graphql-js's answer
 * would serialize to. Whatever does not come out plainly (an error in the
 * skeleton or in any part, an item not found again) returns null, and the
 * caller runs the query as a whole instead.
 */

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

/** What assembly needs: the store of kept parts, and what it needs of a request's context. */
export interface AssemblyHost<TContext> {
  /** The parts kept across requests. */
  readonly parts: AnswerPartStore;
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

    const shapes: ConnectionOfItems[] = [];
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
      const partDocument = withFragments(partOperation(operation, shape, used), fragments);
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
      const kept = await this.host.parts.find(session, group, ids);
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
    const body = bodyWithParts(data, parts);
    if (!body) return this.declined();
    this.stats.assembled += 1;
    return { body };
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
    for (const [group, keep] of byGroup) this.host.parts.keep(session, group, keep);
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

/** The values of the named variables, as a key: an absent one differs from a null one. */
function valuesOf(names: readonly string[], variables: Record<string, unknown>): string {
  return names.length === 0 ? '' : JSON.stringify(names.map((name) => (name in variables ? [variables[name]] : [])));
}
