import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import {
  execute,
  getOperationAST,
  NoUnusedVariablesRule,
  specifiedRules,
  validate,
  OperationTypeNode,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import type { StageTracer } from '../observability/tracing';
import { answerBody } from './answer-body';
import { documentBytes } from './document-cache';
import { omitsRequiredDefaults, readsIntrospection } from './jit-eligibility';
import { PageAssembly, type AssemblyHost, type AssemblyStats, type CompileQuery } from './page-assembly';

/** How much memory the compiled queries may hold, counted as below (lru-cache's `maxSize`). */
export const COMPILED_CACHE_BYTES = 8 * 1024 * 1024;

/**
 * Bytes a compiled query is counted as, per character of its query text: the
 * generated function, its closures and the compiled plan grow with the
 * selection. Measured (heap used after compiling 300 distinct texts, after a
 * full collection): a 50-tool dashboard page 315 bytes a character (83 KB),
 * resolveBindings 172.
 */
export const BYTES_PER_QUERY_CHAR = 320;

/**
 * How many times a (query text, operation) is run before it is compiled: by
 * default the second time, so a text seen once (an ad-hoc query, a client
 * that puts values in the text) costs no compilation and no memory.
 */
export const COMPILE_AFTER_RUNS = 2;

/** The memory for counting texts seen fewer times than COMPILE_AFTER_RUNS (keys at two bytes a character). */
const SIGHTINGS_BYTES = 2 * 1024 * 1024;

/** A fixed overhead per cached entry (the key, the entry, the function object). */
const ENTRY_OVERHEAD_BYTES = 2048;

/** Apollo's gateway interface, as its options name it (its package is Apollo's own dependency). */
type Gateway = ApolloServerOptionsWithGateway<BaseContext>['gateway'];
type Executor = Awaited<ReturnType<Gateway['load']>>['executor'];

/** One operation to run: the parsed and validated document, and what it runs with. */
export interface ExecutionRequest<TContext> {
  readonly schema?: GraphQLSchema;
  readonly document: DocumentNode;
  /** The query text the document was parsed from: the key of its compiled form. */
  readonly source?: string;
  readonly operationName?: string | null;
  readonly variables?: Record<string, unknown> | null;
  readonly contextValue: TContext;
}

/** A compiled run that answered without errors, handed to an ExecutionCheck. */
export interface CheckedRun<TContext> {
  readonly request: ExecutionRequest<TContext>;
  readonly result: ExecutionResult;
  /** Runs the same operation with graphql-js, with the given context. */
  readonly executeWithGraphqlJs: (contextValue: TContext) => Promise<ExecutionResult>;
}

/** Tests only: what the tests want to see of compiled runs, before each answer is sent. */
export interface ExecutionCheck<TContext> {
  /** After every compiled run that answered without errors: to compare it with graphql-js's answer. */
  compare(run: CheckedRun<TContext>): Promise<void>;
  /**
   * A compiled run had errors but graphql-js, run again, had none: the answer
   * sent is right, but jit and graphql-js disagree on something (e.g. a
   * Promise-valued property without a resolver), which costs a second run each time.
   */
  diverged(request: ExecutionRequest<TContext>, compiledErrors: readonly GraphQLError[]): void;
}

/** What happened to the operations so far. */
export interface CompiledExecutionStats {
  /** Answered by a compiled query. */
  compiled: number;
  /** Run by graphql-js: not a query, introspection, no compiled form, or compiled execution off. */
  fallback: number;
  /** Compiled runs that had errors, run again by graphql-js for its exact errors. */
  rerun: number;
  /** Of those, runs graphql-js answered without errors (jit and graphql-js disagreed). */
  diverged: number;
  /** Queries compiled (cache misses that compiled). */
  compilations: number;
  /** Of the compiled answers, those run directly (runReady), past Apollo's request pipeline. */
  direct: number;
  /** Direct runs that had errors, handed back to the full pipeline (which runs them again, for its exact errors). */
  directDeclined: number;
  /** Direct runs answered from kept parts (./page-assembly.ts). */
  readonly assembly: AssemblyStats;
}

/**
 * A query already compiled, ready to run without Apollo: its document (parsed
 * and validated by Apollo when it was first run) and its operation.
 */
export interface ReadyQuery {
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  /** The query text and the operation name the request gave, if any: the key the query was compiled under. */
  readonly source: string;
  readonly operationName: string | null;
}

/** The cached decision for one (query text, operation name): its compiled query, or graphql-js. */
type Plan =
  | { readonly compiled: CompiledQuery; readonly ready: ReadyQuery }
  | { readonly compiled: null; readonly reason: string };

/** A ready query's compiled code, and its pages' assembly from kept parts when it has one. */
interface ReadyCode<TContext> {
  readonly compiled: CompiledQuery;
  readonly assembly: PageAssembly<TContext> | null;
}

/**
 * Runs queries with graphql-jit, compiled once per (query text, operation
 * name) and kept in an LRU bounded by bytes; everything else with graphql-js:
 * mutations, subscriptions, introspection (`__schema`, `__type`) and whatever
 * jit refuses to compile. A compiled run with any error is run again by
 * graphql-js and that answer is sent, so every error (message, path,
 * `extensions.code`) is exactly graphql-js's: jit's errors carry no extensions.
 */
export class CompiledExecution<TContext extends object> {
  readonly stats: CompiledExecutionStats = {
    compiled: 0,
    fallback: 0,
    rerun: 0,
    diverged: 0,
    compilations: 0,
    direct: 0,
    directDeclined: 0,
    assembly: { assembled: 0, partsUsed: 0, partsComputed: 0, declined: 0 },
  };
  private readonly plans: LRUCache<string, Plan>;
  /** The compiled code of each ready query handed out (it lives as long as its plan is referenced). */
  private readonly compiledOf = new WeakMap<ReadyQuery, ReadyCode<TContext>>();
  /**
   * The requests (by context) whose compiled run had errors in runReady: when the same request then comes to execute
   * (through the full pipeline, for graphql-js's exact errors), the compiled code is not run a second time. Only
   * failed runs are kept, and each entry goes with its request (see the `requestOf` option). The key is the request's
   * report, which holds nothing of its session: unlike a request's scope, what such an entry keeps alive through a
   * young-generation collection (see src/engine/request-state.ts) is a few bytes, and only for a run with errors.
   */
  private readonly declined = new WeakSet<object>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly options: {
      /** false: graphql-js only (EXECUTION=reference). */
      readonly enabled: boolean;
      readonly maxBytes?: number;
      /** The run of a (text, operation) that compiles it (COMPILE_AFTER_RUNS; the tests compile at the first). */
      readonly compileAfter?: number;
      readonly check?: ExecutionCheck<TContext>;
      /** What assembling pages from kept parts needs of a context (./page-assembly.ts); absent: never assembled. */
      readonly assembly?: AssemblyHost<TContext>;
      /**
       * What identifies a context's request, the same for every copy of that context (Apollo runs an operation
       * with a shallow copy of the context it is given); the context itself by default.
       */
      readonly requestOf?: (contextValue: TContext) => object;
      /** Traces each run as its request's execution stage, when tracing is on. */
      readonly tracer?: StageTracer | null;
    },
  ) {
    this.plans = new LRUCache<string, Plan>({
      maxSize: options.maxBytes ?? COMPILED_CACHE_BYTES,
      sizeCalculation: (plan, key) =>
        ENTRY_OVERHEAD_BYTES +
        key.length * BYTES_PER_QUERY_CHAR +
        (plan.compiled ? documentBytes(plan.ready.document) : 0),
    });
    this.sightings = new LRUCache<string, number>({
      maxSize: SIGHTINGS_BYTES,
      sizeCalculation: (_count, key) => 64 + 2 * key.length,
    });
  }

  /** Runs so far of the (text, operation) pairs not compiled yet, least recently seen out first. */
  private readonly sightings: LRUCache<string, number>;

  /** How many (query, operation) plans are cached, and the bytes they are counted as. */
  get cacheUsage(): { entries: number; bytes: number } {
    return { entries: this.plans.size, bytes: this.plans.calculatedSize };
  }

  /** Runs one operation: compiled when it can be, else graphql-js. */
  async execute(request: ExecutionRequest<TContext>): Promise<ExecutionResult> {
    // A request whose compiled run already failed (runReady) goes to graphql-js, for its exact errors, at once.
    const compiled =
      this.enabled && !this.declined.has(this.requestOf(request.contextValue)) ? this.planOf(request) : null;
    if (!compiled) {
      this.stats.fallback += 1;
      return this.executeWithGraphqlJs(request, request.contextValue);
    }
    const result = await compiled.query(undefined, request.contextValue, request.variables ?? {});
    if (result.errors?.length) {
      this.stats.rerun += 1;
      const rerun = await this.executeWithGraphqlJs(request, request.contextValue);
      if (!rerun.errors?.length) {
        this.stats.diverged += 1;
        this.options.check?.diverged(request, result.errors);
      }
      return rerun;
    }
    await this.answered(request, result);
    return result;
  }

  /**
   * The compiled query for a (query text, operation name) that Apollo has
   * already run and this has compiled, or null: nothing is compiled here (a
   * text is compiled only on its way through Apollo, after parsing and
   * validation).
   */
  ready(source: string, operationName: string | null): ReadyQuery | null {
    if (!this.enabled) return null;
    const plan = this.plans.get(planKey(source, operationName));
    return plan?.compiled ? plan.ready : null;
  }

  /**
   * Runs a ready query's compiled code, for an answer sent without Apollo's
   * pipeline: the answer's body as Apollo would send it (its JSON and a
   * newline), assembled from kept parts when its pages can be
   * (./page-assembly.ts). Null when the run had any error: the caller then
   * runs the request, with the same context, through the full pipeline,
   * whose `execute` gives graphql-js's exact errors (without running the
   * compiled code again).
   */
  runReady(
    ready: ReadyQuery,
    variables: Record<string, unknown>,
    contextValue: TContext,
  ): Promise<string | Buffer | null> {
    const { tracer } = this.options;
    return tracer
      ? tracer.stage('execution', () => this.runReadyNow(ready, variables, contextValue))
      : this.runReadyNow(ready, variables, contextValue);
  }

  private async runReadyNow(
    ready: ReadyQuery,
    variables: Record<string, unknown>,
    contextValue: TContext,
  ): Promise<string | Buffer | null> {
    const code = this.compiledOf.get(ready);
    if (!code) return null;
    const assembled = code.assembly ? await code.assembly.run(variables, contextValue) : null;
    if (assembled?.body) {
      this.stats.direct += 1;
      if (this.options.check)
        await this.answered(readyRequest(ready, variables, contextValue), parsedForCheck(assembled.body));
      else this.stats.compiled += 1;
      return assembled.body;
    }
    const result = await code.compiled.query(undefined, contextValue, variables);
    if (result.errors?.length) {
      this.stats.directDeclined += 1;
      this.declined.add(this.requestOf(contextValue));
      return null;
    }
    // The page ran whole because parts were missing: they are computed now, for the next page that shows them.
    if (assembled?.fill) await assembled.fill();
    this.stats.direct += 1;
    // Apollo's serialization of a result without errors or extensions; a large one written in pieces (./answer-body.ts).
    const body = answerBody(result.data);
    // The check compares the body sent, so that its writing is checked with the execution.
    if (this.options.check) await this.answered(readyRequest(ready, variables, contextValue), parsedForCheck(body));
    else this.stats.compiled += 1;
    return body;
  }

  /** Counts a compiled answer without errors, and hands it to the tests' check. */
  private async answered(request: ExecutionRequest<TContext>, result: ExecutionResult): Promise<void> {
    this.stats.compiled += 1;
    if (this.options.check) {
      await this.options.check.compare({
        request,
        result,
        executeWithGraphqlJs: (contextValue) => this.executeWithGraphqlJs(request, contextValue),
      });
    }
  }

  /** Apollo Server's gateway interface: the documented way to give Apollo 5 an executor of its own. */
  gateway(): Gateway {
    const run: Executor = (requestContext) =>
      this.execute({
        document: requestContext.document,
        source: requestContext.source,
        // The name the request gave (none: its one operation), so that a plan is found again from the request alone.
        operationName: requestContext.request.operationName ?? null,
        variables: requestContext.request.variables ?? null,
        contextValue: requestContext.context as TContext,
      });
    const { tracer } = this.options;
    const executor: Executor = tracer ? (requestContext) => tracer.stage('execution', () => run(requestContext)) : run;
    return {
      load: async () => ({ executor }),
      // Apollo asks for the schema through this callback, and it must be called by the gateway (apollo-server#7828).
      onSchemaLoadOrUpdate: (callback) => {
        callback({ apiSchema: this.schema, coreSupergraphSdl: '' });
        return () => {};
      },
      stop: async () => {},
    };
  }

  private requestOf(contextValue: TContext): object {
    return this.options.requestOf ? this.options.requestOf(contextValue) : contextValue;
  }

  private get enabled(): boolean {
    return this.options.enabled;
  }

  /** The compiled query for a request, or null when graphql-js must run it. */
  private planOf(request: ExecutionRequest<TContext>): CompiledQuery | null {
    if (request.source === undefined) return null;
    const key = planKey(request.source, request.operationName ?? null);
    let plan = this.plans.get(key);
    if (!plan) {
      const runs = (this.sightings.get(key) ?? 0) + 1;
      if (runs < (this.options.compileAfter ?? COMPILE_AFTER_RUNS)) {
        this.sightings.set(key, runs);
        return null;
      }
      this.sightings.delete(key);
      plan = this.compile(request.document, request.source, request.operationName ?? null);
      this.plans.set(key, plan);
    }
    return plan.compiled;
  }

  private compile(document: DocumentNode, source: string, operationName: string | null): Plan {
    const operation = getOperationAST(document, operationName);
    if (!operation) return { compiled: null, reason: 'no operation' };
    if (operation.operation !== OperationTypeNode.QUERY) return { compiled: null, reason: operation.operation };
    if (readsIntrospection(document)) return { compiled: null, reason: 'introspection' };
    if (operation.variableDefinitions?.some((definition) => omitsRequiredDefaults(this.schema, definition.type)))
      return { compiled: null, reason: 'input fields that are required and have a default' };
    const compiled = this.compileJit(document, operationName ?? undefined);
    if (!compiled) return { compiled: null, reason: 'not compiled' };
    this.stats.compilations += 1;
    const ready: ReadyQuery = { document, operation, source, operationName };
    const host = this.options.assembly;
    const assembly = host
      ? PageAssembly.plan(this.schema, document, operation, this.compileDerived, host, this.stats.assembly)
      : null;
    this.compiledOf.set(ready, { compiled, assembly });
    return { compiled, ready };
  }

  private compileJit(document: DocumentNode, operationName: string | undefined): CompiledQuery | null {
    const compiled = compileQuery(this.schema, document, operationName, {
      // An error is run again by graphql-js, which gives its own: jit's stacks would be thrown away.
      disablingCapturingStackErrors: true,
    });
    return isCompiledQuery(compiled) ? compiled : null;
  }

  /**
   * Compiles a query derived from one Apollo validated (a page's skeleton or
   * part), after validating it too, all but the unused-variable rule: each
   * derived query keeps every variable of the original.
   */
  private readonly compileDerived: CompileQuery = (document, operationName) => {
    if (validate(this.schema, document, DERIVED_QUERY_RULES).length > 0) return null;
    return this.compileJit(document, operationName);
  };

  private executeWithGraphqlJs(request: ExecutionRequest<TContext>, contextValue: TContext): Promise<ExecutionResult> {
    return Promise.resolve(
      execute({
        schema: this.schema,
        document: request.document,
        operationName: request.operationName ?? undefined,
        variableValues: request.variables ?? undefined,
        contextValue,
      }),
    );
  }
}

/** A ready query's run as the tests' check sees it (made only when there is a check). */
function readyRequest<TContext>(
  ready: ReadyQuery,
  variables: Record<string, unknown>,
  contextValue: TContext,
): ExecutionRequest<TContext> {
  return {
    document: ready.document,
    source: ready.source,
    operationName: ready.operationName,
    variables,
    contextValue,
  };
}

/** The rules a derived query is validated by: graphql's own, but for unused variables (see compileDerived). */
const DERIVED_QUERY_RULES = specifiedRules.filter((rule) => rule !== NoUnusedVariablesRule);

/**
 * A plan's key: the operation name first, length-prefixed, so no two (name,
 * text) pairs share a key; no name at all is not the empty name (which names
 * no operation: graphql-js refuses it, where no name means the only one).
 */
function planKey(source: string, operationName: string | null): string {
  return operationName === null ? `-:${source}` : `${operationName.length}:${operationName}:${source}`;
}

/** Tests only: an assembled body as the check compares it; one that is not JSON compares as data that cannot match. */
function parsedForCheck(body: string | Buffer): ExecutionResult {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  try {
    return JSON.parse(text) as ExecutionResult;
  } catch {
    return { data: { '(an assembled body that is not JSON)': text } };
  }
}
