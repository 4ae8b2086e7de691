/**
 * Domain errors. Each has a stable `code`; the GraphQL edge maps them to
 * `extensions.code` in one place (src/engine/error-mapping.ts).
 */

/** A problem with one input field, e.g. `{ field: 'input.name', message: '…' }`. */
export interface FieldProblem {
  readonly field: string;
  readonly message: string;
}

/** A static problem with a tool definition, reported by registration. */
export interface ToolProblem {
  readonly slot: string | null;
  readonly field: string;
  readonly message: string;
}

/** Why a slot could not be bound. */
export const FAILURE_REASONS = ['NO_MATCH', 'AMBIGUOUS', 'TYPE_MISMATCH', 'NOT_FOUND'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** A slot that failed to bind, reported by binding resolution. */
export interface BindingProblem {
  readonly slot: string;
  readonly reason: FailureReason;
  readonly message: string;
  readonly candidates: readonly string[];
}

/** Something that uses a thing that was asked to be deleted. */
export interface UsageRef {
  readonly kind: 'TOOL' | 'PROJECT' | 'RESOURCE' | 'RESOURCE_TYPE';
  readonly name: string;
  readonly detail?: string;
}

/** Base class of every error the core and the application layer raise on purpose. */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  /** In a batch of changes (registerBatch), the index of the entry that failed; null otherwise. */
  entry: number | null = null;

  /** Marks the error as the batch entry's at `index`: its message starts by naming it. */
  atEntry(index: number): this {
    this.entry = index;
    this.message = `entry ${index}: ${this.message}`;
    return this;
  }
}

/** Input that breaks the grammar or a size limit. */
export class BadInputError extends DomainError {
  readonly code = 'BAD_USER_INPUT';
  constructor(readonly problems: readonly FieldProblem[]) {
    super(
      problems.length === 1
        ? problems[0].message
        : `${problems.length} input problems: ${problems.map((p) => p.message).join('; ')}`,
    );
  }
}

/** A ref (tool, project, resource or type) that names nothing. */
export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND';
  /** Existing names close to the ref ("did you mean …"). */
  suggestions: readonly string[] = [];
  /** What the thing the ref names is called now, when it was renamed. */
  renamedTo: string | null = null;

  constructor(
    readonly kind: string,
    readonly ref: string,
    message?: string,
  ) {
    super(message ?? `no ${kind} '${ref}' is registered`);
  }

  /** Adds what is known of the name: its new name after a rename, and close existing names. */
  withHints(hints: { renamedTo: string | null; suggestions: readonly string[] }): this {
    this.renamedTo = hints.renamedTo;
    this.suggestions = hints.suggestions;
    if (hints.renamedTo) this.message += `; it was renamed to '${hints.renamedTo}'`;
    else if (hints.suggestions.length > 0) {
      const quoted = hints.suggestions.map((s) => `'${s}'`);
      this.message += `; did you mean ${quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`}?`;
    }
    return this;
  }
}

/** A duplicate name, alias or link, or a delete of something still in use. */
export class ConflictError extends DomainError {
  readonly code = 'CONFLICT';
  constructor(
    message: string,
    readonly usedBy: readonly UsageRef[] = [],
  ) {
    super(message);
  }
}

/**
 * A batch sent to follow another (registerBatch's `after`) when the registry's last committed write is not that
 * one: it failed, or another write came between. Nothing is stored; the client sends it again once it knows.
 */
export class PreconditionFailedError extends DomainError {
  readonly code = 'PRECONDITION_FAILED';
}

/** A tool definition that fails the static checks. */
export class ToolValidationError extends DomainError {
  readonly code = 'TOOL_VALIDATION_FAILED';
  constructor(readonly problems: readonly ToolProblem[]) {
    super(
      `tool definition has ${problems.length} problem${problems.length === 1 ? '' : 's'}: ${problems.map((p) => p.message).join('; ')}`,
    );
  }
}

/** One or more slots of a tool could not be bound in a project. */
export class BindingResolutionError extends DomainError {
  readonly code = 'BINDING_RESOLUTION_FAILED';
  constructor(readonly problems: readonly BindingProblem[]) {
    super(
      `${problems.length} slot${problems.length === 1 ? '' : 's'} could not be bound: ${problems.map((p) => p.slot).join(', ')}`,
    );
  }
}

/** No credential where one is needed, or one that does not check out (expired, wrong audience, unknown, revoked). */
export class UnauthenticatedError extends DomainError {
  readonly code = 'UNAUTHENTICATED';
}

/** What a refused principal lacks: the role needed and every namespace it is missing on. */
export interface ForbiddenDetails {
  readonly principal: string;
  readonly role: string;
  readonly namespaces: readonly string[];
}

/** A known caller that may not do this. With details when a role is missing. */
export class ForbiddenError extends DomainError {
  readonly code = 'FORBIDDEN';
  constructor(
    message: string,
    readonly details: ForbiddenDetails | null = null,
  ) {
    super(message);
  }
}
