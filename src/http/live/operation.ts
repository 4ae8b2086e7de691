import type { FastifyBaseLogger } from 'fastify';
import {
  getOperationAST,
  getVariableValues,
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  OperationTypeNode,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import { randomUUID } from 'node:crypto';
import type { Services } from '../../application/services';
import type { ReadSession } from '../../application/versioning';
import type { AppConfig } from '../../config';
import { readRefusal } from '../../core/access';
import type { Access, RequestContext } from '../../graphql/context';
import type { CapacityRefusal, SubscriptionCapacity } from './capacity';
import { documentBytes } from '../../engine/document-cache';
import { formatError, isExpectedError } from '../../engine/error-mapping';
import { limitRules, QUERY_LIMITS, requestLimitError } from '../../engine/admission';

/** What the live transports need from the rest of the server. */
export interface LiveDependencies {
  readonly config: AppConfig;
  readonly schema: GraphQLSchema;
  readonly services: Services;
  readonly newSession: () => ReadSession;
}

/** A subscription as a client sends it (over WebSocket or as an event stream's request). */
export interface SubscriptionPayload {
  readonly query?: unknown;
  readonly operationName?: unknown;
  readonly variables?: unknown;
}

/** Who subscribes, and how their subscription is served. */
export interface SubscriberScope {
  readonly access: Access;
  readonly log: FastifyBaseLogger;
  readonly transport?: RequestContext['transport'];
}

/** A subscription ready to run, or why it cannot (with the HTTP status an event stream answers it with). */
export type PreparedSubscription =
  | {
      readonly ok: true;
      readonly args: ExecutionArgs & { contextValue: RequestContext };
      /** The parsed document, shared by every subscription of the same text, and its estimated heap. */
      readonly documentBytes: number;
    }
  | {
      readonly ok: false;
      readonly status: number;
      readonly errors: readonly GraphQLError[];
      readonly requestId: string;
    };

/**
 * The rules every subscription meets before it runs, whatever carries it:
 * the same parse (token limit), validation (the limit rules, introspection
 * setting), argument and cost limits as a query over HTTP, and variables
 * coerced up front so that a bad one is BAD_USER_INPUT, as over HTTP. Only
 * subscriptions are served: queries and mutations go over HTTP.
 */
export class SubscriptionOperations {
  private readonly rules;
  /** Query texts parsed and validated, shared by the subscriptions that send the same text. */
  private readonly documents = new LRUCache<string, Checked>({
    maxSize: DOCUMENTS_KEPT_BYTES,
    maxEntrySize: DOCUMENTS_KEPT_BYTES / 8,
    sizeCalculation: (checked) => checked.bytes,
  });

  constructor(private readonly deps: LiveDependencies) {
    this.rules = [
      ...specifiedRules,
      ...limitRules,
      ...(deps.config.introspection ? [] : [NoSchemaIntrospectionCustomRule]),
    ];
  }

  prepare(payload: SubscriptionPayload, scope: SubscriberScope): PreparedSubscription {
    const requestId = randomUUID();
    const refuse = (status: number, ...errors: GraphQLError[]): PreparedSubscription => {
      // A client's mistake: a line like any refused request's, never an error-level one.
      scope.log.info(
        { requestId, operationType: 'subscription', errorCodes: errors.map((e) => e.extensions.code) },
        'subscription refused',
      );
      return { ok: false, status, errors, requestId };
    };
    const readRefused = readRefusal(scope.access);
    if (readRefused !== null) return refuse(401, coded(readRefused, 'UNAUTHENTICATED'));
    if (typeof payload.query !== 'string' || payload.query === '')
      return refuse(400, coded('send the subscription as a string `query`', 'BAD_REQUEST'));
    const operationName = typeof payload.operationName === 'string' ? payload.operationName : undefined;
    if (payload.operationName != null && operationName === undefined)
      return refuse(400, coded('operationName must be a string', 'BAD_REQUEST'));
    if (payload.variables != null && (typeof payload.variables !== 'object' || Array.isArray(payload.variables)))
      return refuse(400, coded('variables must be an object', 'BAD_REQUEST'));
    const variables = (payload.variables ?? {}) as Record<string, unknown>;

    const checked = this.check(payload.query);
    if ('refusal' in checked) return refuse(400, ...checked.refusal);
    const { document } = checked;
    const operation = getOperationAST(document, operationName);
    if (!operation) return refuse(400, coded('name the operation to run', 'BAD_REQUEST'));
    if (operation.operation !== OperationTypeNode.SUBSCRIPTION)
      return refuse(
        400,
        coded(
          'only subscriptions are served over WebSocket and Server-Sent Events; send queries and mutations over HTTP to /graphql',
          'BAD_REQUEST',
        ),
      );
    const coerced = getVariableValues(this.deps.schema, operation.variableDefinitions ?? [], variables, {
      maxErrors: 20,
    });
    if (coerced.errors) return refuse(400, ...coerced.errors.map((e) => coded(e.message, 'BAD_USER_INPUT')));
    const refused = requestLimitError(this.deps.schema, document, operationName, variables);
    if (refused) return refuse(400, refused);

    const newSession = this.deps.newSession;
    let session: ReadSession | undefined;
    const contextValue: RequestContext = {
      requestId,
      access: scope.access,
      services: this.deps.services,
      // Made when first read: most subscriptions never read through it, and a live one holds its context.
      get session() {
        return (session ??= newSession());
      },
      log: scope.log,
      report: {
        operationName: operation.name?.value ?? null,
        operationType: 'subscription',
        actor: null,
        errorCodes: [],
        cache: 'bypass',
      },
      transport: scope.transport,
    };
    return {
      ok: true,
      args: { schema: this.deps.schema, document, operationName, variableValues: variables, contextValue },
      documentBytes: checked.bytes,
    };
  }

  /** The document of a query text, parsed and validated once (then kept while texts are repeated), or its refusal. */
  private check(query: string): Checked | { refusal: GraphQLError[] } {
    const kept = this.documents.get(query);
    if (kept) return kept;
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: QUERY_LIMITS.tokens });
    } catch (error) {
      const message = error instanceof GraphQLError ? error.message : 'the query does not parse';
      return { refusal: [coded(message, 'GRAPHQL_PARSE_FAILED')] };
    }
    const problems = validate(this.deps.schema, document, this.rules);
    if (problems.length > 0)
      return { refusal: problems.map((p) => coded(p.message, 'GRAPHQL_VALIDATION_FAILED', p.extensions)) };
    const checked = { document, bytes: documentBytes(document) };
    this.documents.set(query, checked);
    return checked;
  }

  /** The refusal of a subscription the process has no place for (see ./capacity.ts). */
  static capacityError(refusal: CapacityRefusal, capacity: SubscriptionCapacity): GraphQLError {
    return refusal === 'SUBSCRIPTIONS'
      ? coded(
          `the server already serves ${capacity.limit} subscriptions (WS_MAX_SUBSCRIPTIONS); try again later`,
          'SERVICE_UNAVAILABLE',
          { limit: 'SUBSCRIPTIONS', max: capacity.limit },
        )
      : coded(
          'the server holds as many different subscription documents as it may; try again later, or subscribe with a query text others use',
          'SERVICE_UNAVAILABLE',
          { limit: 'SUBSCRIPTION_DOCUMENTS' },
        );
  }

  /**
   * Errors as a subscriber gets them: through the one error mapping, each with the request id (a subscription
   * has no response header to carry it). An unexpected one is logged with its stack, never sent.
   */
  format(errors: readonly GraphQLError[], requestId: string, log: FastifyBaseLogger): GraphQLFormattedError[] {
    return errors.map((error) => {
      if (!isExpectedError(error)) log.error({ err: error.originalError ?? error, requestId }, 'unexpected error');
      const formatted = formatError(error.toJSON(), error);
      return { ...formatted, extensions: { ...formatted.extensions, requestId } };
    });
  }
}

/** A query text parsed and validated, with the heap its document takes. */
interface Checked {
  readonly document: DocumentNode;
  readonly bytes: number;
}

/** Heap the kept documents of subscription query texts may take (the documents of live subscriptions stay held). */
const DOCUMENTS_KEPT_BYTES = 4 * 1024 * 1024;

/** A refusal of the live transports, with its stable code. */
export function coded(message: string, code: string, extensions: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { ...extensions, code } });
}
