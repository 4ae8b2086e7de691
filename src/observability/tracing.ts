import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { IncomingHttpHeaders } from 'node:http';
import type { StatementTracer } from '../persistence/statement-tracing';

/** Runs a stage of a request (admission, execution) in a span of its own. */
export interface StageTracer {
  stage<T>(name: string, run: () => T): T;
}

/** A request's span, from its start until its response is sent. */
export interface RequestTrace {
  readonly span: Span;
  readonly method: string;
  /** The context the request's work runs in, with its span active. */
  readonly context: Context;
}

/** What a request's span says once it is answered. */
export interface RequestOutcome {
  readonly route: string;
  readonly status: number;
  readonly outcome: string;
  readonly operationName: string | null;
  readonly operationType: string | null;
  /** Who made the request, when known. */
  readonly principal: string | null;
  readonly cache: string | null;
}

/**
 * Spans for the server's work, through the OpenTelemetry API: one per request
 * (a child of its `traceparent` when it carries one), with children for its
 * stages (admission, execution) and for each SQL statement (its text without
 * parameters). The SDK that exports them (./tracing-sdk.ts) is started only
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise there is no Tracing at
 * all and none of this runs.
 */
export class Tracing implements StageTracer, StatementTracer {
  private readonly tracer: Tracer;

  constructor(
    version: string,
    /** The database's name in the spans' `db.system.name`: sqlite or postgresql. */
    private readonly database: string,
  ) {
    this.tracer = trace.getTracer('tool-registry', version);
  }

  /** Starts the span of an incoming request. */
  requestStarted(method: string, path: string, headers: IncomingHttpHeaders): RequestTrace {
    const parent = propagation.extract(ROOT_CONTEXT, headers);
    const span = this.tracer.startSpan(
      method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': path } },
      parent,
    );
    return { span, method, context: trace.setSpan(parent, span) };
  }

  /** Ends a request's span with what came of it. */
  requestCompleted({ span, method }: RequestTrace, outcome: RequestOutcome): void {
    const { operationName, operationType } = outcome;
    span.updateName(
      operationType ? `${operationType}${operationName ? ` ${operationName}` : ''}` : `${method} ${outcome.route}`,
    );
    span.setAttributes({
      'http.route': outcome.route,
      'http.response.status_code': outcome.status,
      'registry.outcome': outcome.outcome,
      ...(operationType ? { 'graphql.operation.type': operationType } : {}),
      ...(operationName ? { 'graphql.operation.name': operationName } : {}),
      ...(outcome.principal ? { 'enduser.id': outcome.principal } : {}),
      ...(outcome.cache ? { 'registry.cache': outcome.cache } : {}),
    });
    if (outcome.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }

  /** Runs `run` with the request's span active, so that the spans it starts are its children. */
  within<T>(request: RequestTrace, run: () => T): T {
    return context.with(request.context, run);
  }

  stage<T>(name: string, run: () => T): T {
    return this.inSpan(name, SpanKind.INTERNAL, {}, run);
  }

  statement<T>(sql: string, run: () => T): T {
    return this.inSpan(statementName(sql), SpanKind.CLIENT, this.statementAttributes(sql), run);
  }

  statementRan(sql: string, ms: number | undefined, failed: boolean): void {
    const end = Date.now();
    const span = this.tracer.startSpan(statementName(sql), {
      kind: SpanKind.CLIENT,
      attributes: this.statementAttributes(sql),
      startTime: end - (ms ?? 0),
    });
    if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end(end);
  }

  private statementAttributes(sql: string): Record<string, string> {
    return { 'db.system.name': this.database, 'db.query.text': sql };
  }

  /** Runs `run` in a child span of the active one, ended when it returns or its promise settles. */
  private inSpan<T>(name: string, kind: SpanKind, attributes: Record<string, string>, run: () => T): T {
    return this.tracer.startActiveSpan(name, { kind, attributes }, (span) => {
      const failed = () => {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      };
      let result: T;
      try {
        result = run();
      } catch (error) {
        failed();
        throw error;
      }
      if (result instanceof Promise) {
        result.then(
          () => span.end(),
          () => failed(),
        );
      } else {
        span.end();
      }
      return result;
    });
  }
}

/** A statement's span name: its first keyword (SELECT, INSERT, BEGIN, …), as OpenTelemetry's database conventions suggest. */
function statementName(sql: string): string {
  return /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
}
