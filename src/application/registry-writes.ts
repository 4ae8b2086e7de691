import {
  authorize,
  describeRefusal,
  grantHolders,
  namespaceOf,
  ownsEverything,
  requirementsOf,
  ruleOf,
  type Grant,
  type Principal,
  type Touched,
} from '../core/access';
import {
  BadInputError,
  ConflictError,
  DomainError,
  ForbiddenError,
  PreconditionFailedError,
  UnauthenticatedError,
} from '../core/errors';
import { checkRef, isIdRef } from '../core/grammar';
import { namespacesOfEdits } from '../core/registry-edit';
import type { ChangeRecord } from '../persistence/records';
import { asConstraintViolation, type ConstraintViolation } from '../persistence/sql-errors';
import { ImpactTracker, type BindingImpact } from './binding-impact';
import { changeEntries, impactOf, typeNamer } from './change-entries';
import { TurnBudget } from './turn-budget';
import type { ReadSession, RegistryVersioning, WriteScope } from './versioning';

import type { WriteReader } from './versioning';

export type { WriteReader, WriteScope } from './versioning';

/** Who asks for a change, through which mutation, and whether only to preview it. */
export interface ChangeRequest {
  /** The request's read session; reset after the change so the rest of the request reads it. */
  readonly session: ReadSession;
  /** Who: the change log's actor is its id (`user:alice`, `token:admin`, `anonymous` with no token configured). */
  readonly principal: Principal;
  /** The mutation field's name, e.g. `deleteResource`. */
  readonly operation: string;
  /** Check and compute everything, then roll back: nothing is stored, versioned or logged. */
  readonly dryRun: boolean;
}

/** What a change did (or, for a dry run, would do). */
export interface ChangeOutcome<T> {
  readonly result: T;
  readonly dryRun: boolean;
  /** The version the change committed; for a dry run, or a change that changed nothing, the current version. */
  readonly registryVersion: number;
  readonly impact: BindingImpact;
}

/** Steps of a batch (registerBatch) per turn of the event loop: about 2 ms of work on SQLite. */
export const BATCH_STEPS_PER_TURN = 16;

/**
 * Back-pressure on writers (the live feed): while `active`, writes in this process commit one at a time, and each
 * answers once `settled` resolves for its version.
 */
export interface WritePacer {
  active(): boolean;
  settled(version: number): Promise<void>;
}

/** A committed change, as told to whoever listens (live updates). */
export interface CommittedChange {
  readonly version: number;
  readonly entries: readonly ChangeRecord[];
}

/**
 * Runs the registry's changes. Each runs in one transaction through
 * versioning, and this is the one place where what a write changed (its
 * writer's edits) turns into everything that follows a change: the binding
 * impact, the change-log entries (in the same transaction), and, once
 * committed, the listeners (events; versioning has already moved the version
 * and its caches).
 */
export class RegistryWrites {
  private readonly listeners = new Set<(change: CommittedChange) => void>();
  /** What paces writes, when anything does (see `paceBy`). */
  private pacer: WritePacer | null = null;
  /** The steps of a batch run per turn of the event loop (see `run`). */
  private readonly batchTurns = new TurnBudget(BATCH_STEPS_PER_TURN);
  /** Settles when the latest paced write has finished, its pacing included (see `run`). */
  private turn: Promise<void> = Promise.resolve();

  constructor(private readonly versioning: RegistryVersioning) {}

  /** Paces writes by `pacer` from now on. */
  paceBy(pacer: WritePacer): void {
    this.pacer = pacer;
  }

  /** Hears every committed change, after its commit. Returns a function that stops listening. */
  listen(listener: (change: CommittedChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs `work` in one write transaction. A constraint violation becomes the
   * domain error `onViolation` gives (CONFLICT by default). Afterwards the
   * request's session is reset, so the rest of the request reads the change.
   *
   * Every change is authorized here (core/access.ts): what the input names
   * (`named`: e.g. a new name's namespace) before the work, and every
   * namespace the change's edits touch after it, against the principal's
   * grants as this transaction reads them. A refusal (FORBIDDEN) rolls the
   * transaction back: nothing is stored, versioned or logged, and a dry run
   * is refused exactly like the real run.
   */
  async change<T>(
    request: ChangeRequest,
    work: (scope: WriteScope) => Promise<T>,
    onViolation?: (violation: ConstraintViolation) => DomainError,
    named: readonly Touched[] = [],
  ): Promise<ChangeOutcome<T>> {
    return this.apply(request, { operation: request.operation, work, onViolation, named });
  }

  /** Runs one change as its own mutation: `change`, with the step a service built. */
  async apply<T>(request: ChangeRequest, step: ChangeStep<T>): Promise<ChangeOutcome<T>> {
    const outcome = await this.run(request, [step], false);
    return { ...outcome, result: outcome.result[0] };
  }

  /**
   * Runs several changes, in order, in one write transaction: all of them or
   * none. Each is authorized and logged exactly as its own mutation would
   * be (its operation names its entries in the change log), and each sees
   * what the ones before it did, the type hierarchy included. The first
   * that fails rolls everything back, and its error says which it was
   * (DomainError.entry, its index). One version, one binding impact over all.
   */
  changeAll<T>(
    request: ChangeRequest,
    steps: readonly ChangeStep<T>[],
    order: BatchOrder = {},
  ): Promise<ChangeOutcome<T[]>> {
    return this.run(request, steps, true, order);
  }

  private async run<T>(
    request: ChangeRequest,
    steps: readonly ChangeStep<T>[],
    batch: boolean,
    order: BatchOrder = {},
  ): Promise<ChangeOutcome<T[]>> {
    // While the pacer is active (someone subscribes), one write at a time in this process, each after the one
    // before it was settled by the pacer: a write's fan-out to live subscribers is over before the next write
    // commits, so writers cannot queue changes up ahead of the subscribers (the database orders writers anyway:
    // SQLite has one writer, and on PostgreSQL every write takes the version row's lock first; with nobody
    // subscribed, writes still overlap what they do before that lock).
    const paced = !request.dryRun && (this.pacer?.active() ?? false);
    let done = (): void => {};
    if (paced) {
      const previous = this.turn;
      this.turn = new Promise<void>((resolve) => (done = resolve));
      await previous;
    }
    try {
      const outcome = await this.versioning.write(
        async (scope) => {
          // The version row is locked now (the bump came first): the write before this one is the last committed.
          if (order.after !== undefined && !scope.writer.state.followsBatch(order.after, scope.version)) {
            throw new PreconditionFailedError(
              `the batch '${order.after}' is not the last write committed (it failed, or another write came ` +
                `between): nothing was registered; send this batch again without after`,
            );
          }
          // What the principal holds, read in this transaction; what the input names is authorized before any work.
          const grants = await grantsInTransaction(request.principal, scope.writer.reader);
          const tracker = new ImpactTracker(scope.writer.reader, scope.hierarchy);
          scope.writer.observe(tracker);
          const { results, operations } = await this.runSteps(request, steps, batch, scope, grants, tracker);
          const tracked = await tracker.finish(scope.writer.edits);
          const typeName = await typeNamer(tracker, scope, scope.writer.edits);
          const entries = changeEntries(scope.writer.edits, tracked, request.principal.id, operations, scope, typeName);
          if (!request.dryRun) await scope.writer.appendChanges(entries);
          if (!request.dryRun && order.key !== undefined) await scope.writer.state.keyBatch(order.key, scope.version);
          const impact = impactOf(tracked, entries, request.dryRun ? scope.before.version : null);
          return { results, impact, entries };
        },
        { dryRun: request.dryRun },
      );
      // A dry run, or an update that changed nothing, committed nothing: nobody is told.
      if (outcome.committed) {
        const committed = { version: outcome.state.version, entries: outcome.result.entries };
        for (const listener of this.listeners) listener(committed);
        if (paced) await this.pacer!.settled(committed.version);
      }
      return {
        result: outcome.result.results,
        dryRun: outcome.dryRun,
        registryVersion: outcome.state.version,
        impact: outcome.result.impact,
      };
    } catch (error) {
      const violation = asConstraintViolation(error);
      if (violation) {
        throw (
          steps[0]?.onViolation?.(violation) ??
          new ConflictError('the change conflicts with the current registry; re-read and try again')
        );
      }
      throw error;
    } finally {
      done();
      request.session.reset();
    }
  }

  /**
   * Runs the steps in the transaction, in order, each authorized before and after its work; gives their results
   * and, for each edit, the operation that made it. In a batch, each step sees the hierarchy as the ones before
   * it left it, the steps share the thread, and a failure names its step.
   */
  private async runSteps<T>(
    request: ChangeRequest,
    steps: readonly ChangeStep<T>[],
    batch: boolean,
    scope: WriteScope,
    grants: readonly Grant[],
    tracker: ImpactTracker,
  ): Promise<{ results: T[]; operations: string[] }> {
    // A batch's steps see the type hierarchy as the steps before them left it (a type one registers is a parent
    // or a slot type for the next), as the binding impact follows it; a single change sees it as committed.
    const stepScope = batch ? { ...scope, hierarchy: () => tracker.hierarchy() } : scope;
    const results: T[] = [];
    const operations: string[] = [];
    // The batch entry each step starts at (a run step stands for several).
    let entry = 0;
    for (const step of steps) {
      const first = entry;
      entry += step.entries?.length ?? 1;
      // A batch shares the thread: a slice of its steps per turn of the event loop, and other requests
      // (reads, on their own connection) are served in between (on SQLite a statement does not yield).
      const turn = batch ? this.batchTurns.take(unitsOf(step)) : null;
      if (turn) await turn;
      const from = scope.writer.edits.length;
      try {
        if (step.entries) {
          // A run step: each entry authorized as its own step would be, and a refusal names its entry. As step by
          // step, the first entry that fails is the one reported: a refused one, or one before it whose work failed
          // (the work runs either way, and is rolled back with the batch).
          let refused: EntryFailure | null = null;
          for (const [offset, named] of step.entries.entries()) {
            try {
              authorizeChange(request.principal, step.operation, grants, named);
            } catch (error) {
              refused = new EntryFailure(offset, error);
              break;
            }
          }
          let result: T;
          try {
            result = await step.work(stepScope);
          } catch (error) {
            throw refused && !(error instanceof EntryFailure && error.offset < refused.offset) ? refused : error;
          }
          if (refused) throw refused;
          results.push(result);
          const made = scope.writer.edits.slice(from);
          for (const [offset, edit] of made.entries()) {
            atOffset(offset, () =>
              authorizeChange(request.principal, step.operation, grants, namespacesOfEdits([edit])),
            );
          }
        } else {
          authorizeChange(request.principal, step.operation, grants, step.named);
          results.push(await step.work(stepScope));
          // The one authorization of what the change did: every namespace its edits touch.
          const made = scope.writer.edits.slice(from);
          authorizeChange(request.principal, step.operation, grants, namespacesOfEdits(made));
        }
      } catch (error) {
        if (!batch) throw error instanceof EntryFailure ? error.error : error;
        throw asEntryError(error, step, first);
      }
      for (let e = from; e < scope.writer.edits.length; e++) operations.push(step.operation);
    }
    return { results, operations };
  }
}

/**
 * One change a mutation asks for: its mutation's name (which access rule
 * applies, and what the change log says did it), what its input names, the
 * work, and how a constraint violation reads.
 */
export interface ChangeStep<T> {
  readonly operation: string;
  readonly work: (scope: WriteScope) => Promise<T>;
  readonly onViolation?: (violation: ConstraintViolation) => DomainError;
  readonly named: readonly Touched[];
  /**
   * A run step: one step for several consecutive entries of a batch, all of the same mutation (a run of
   * resources, projects, links or tools), so that they cost a statement or two, not one or
   * more each. What each entry names, in order; `named` is then their union. Its work makes one edit per entry,
   * in order (each edit is authorized as its entry), gives one result for them all, and throws an EntryFailure to
   * say which failed (anything else it throws, a constraint violation say, is its first entry's failure).
   */
  readonly entries?: readonly (readonly Touched[])[];
}

/**
 * Where a batch stands among a client's batches (registerBatch's `key` and `after`): `key` names it, once
 * committed, as the registry's last keyed batch; `after` runs it only when the registry's last committed write is
 * the batch of that key (else PRECONDITION_FAILED, nothing stored). So a client may send a batch before the one
 * it follows has answered, and it is never applied after that one failed.
 */
export interface BatchOrder {
  readonly key?: string;
  readonly after?: string;
}

/** Thrown by a run step's work: which of its entries failed (its offset among them), and why. */
export class EntryFailure extends Error {
  constructor(
    readonly offset: number,
    readonly error: unknown,
  ) {
    super(error instanceof Error ? error.message : String(error));
  }
}

/** Runs `check`; what it throws is the failure of the run step's entry at `offset`. */
function atOffset(offset: number, check: () => void): void {
  try {
    check();
  } catch (error) {
    throw new EntryFailure(offset, error);
  }
}

/** How much of a turn's budget a step takes: a run step's entries cost a quarter of a step each (one statement for all). */
function unitsOf(step: ChangeStep<unknown>): number {
  return step.entries ? Math.max(1, Math.ceil(step.entries.length / 4)) : 1;
}

/** The most entries one run step stands for: its cost in a turn's budget is then the whole budget. */
export const RUN_STEP_ENTRIES = BATCH_STEPS_PER_TURN * 4;

/** A batch's failing change: its domain error, marked with its index (a constraint violation read as the change reads it). */
function asEntryError(failure: unknown, step: ChangeStep<unknown>, first: number): unknown {
  const index = failure instanceof EntryFailure ? first + failure.offset : first;
  const error = failure instanceof EntryFailure ? failure.error : failure;
  const violation = asConstraintViolation(error);
  const domain =
    violation !== null
      ? (step.onViolation?.(violation) ??
        new ConflictError('the change conflicts with the current registry; re-read and try again'))
      : error;
  return domain instanceof DomainError ? domain.atEntry(index) : error;
}

/**
 * The one authorization rule, applied to a change: its principal's grants
 * against the namespaces it touches. A mutation with no rule is refused to
 * everyone.
 */
function authorizeChange(
  principal: Principal,
  operation: string,
  grants: readonly Grant[],
  touched: readonly Touched[],
): void {
  const rule = ruleOf(operation);
  if (!rule) throw new ForbiddenError(`${operation} has no access rule, so nobody may run it`);
  const refusal = authorize(principal.id, grants, requirementsOf(rule, touched));
  if (refusal) throw new ForbiddenError(describeRefusal(refusal, operation), refusal);
}

/** What a principal holds, as the transaction sees it; an API token must still authenticate. */
async function grantsInTransaction(principal: Principal, reader: WriteReader): Promise<readonly Grant[]> {
  // A static admin token (or open development mode) holds everything already: nothing to read.
  if (ownsEverything(principal)) return principal.builtIn;
  if (principal.apiToken !== null) {
    const [token] = await reader.apiTokensByNames([principal.apiToken]);
    const now = new Date().toISOString();
    if (!token || token.revokedAt !== null || (token.expiresAt !== null && token.expiresAt <= now)) {
      throw new UnauthenticatedError(`API token ${principal.apiToken} is revoked or expired`);
    }
  }
  return [...principal.builtIn, ...(await reader.grantsOf(grantHolders(principal)))];
}

/**
 * What names in a mutation's input say of the namespaces it touches, known
 * before any lookup: a new name's, and a ref's when it is a name (an id says
 * nothing until it is looked up; what it finds is authorized on the edits).
 */
export function namedIn(...refs: (string | null | undefined)[]): Touched[] {
  return refs.flatMap((ref) => (ref == null || isIdRef(ref) ? [] : [{ namespace: namespaceOf(ref), role: null }]));
}

/** What a run step's entries name, each by one ref (namedIn), and all of them: its `entries` and `named`. */
export function namedEach(refs: readonly string[]): Pick<ChangeStep<unknown>, 'entries' | 'named'> {
  const entries = refs.map((ref) => namedIn(ref));
  return { entries, named: entries.flat() };
}

/** Refuses a malformed ref argument (empty, too long, control characters) before any lookup. */
export function requireWellFormedRef(field: string, ref: string): void {
  const problem = checkRef(ref);
  if (problem) throw new BadInputError([{ field, message: `${field} ${problem}` }]);
}
