import { createHash, randomBytes } from 'node:crypto';
import {
  authorize,
  canSeeChange,
  canSeeGrant,
  canSeeToken,
  checkNamespace,
  checkPrincipal,
  EVERY_NAMESPACE,
  grantHolders,
  namespaceOf,
  normalizeNamespace,
  ownedNamespaces,
  ownsEverything,
  requirementsOn,
  ruleOf,
  tokenPrincipal,
  TOKEN_NAME_PATTERN,
  type Grant,
  type Principal,
  type Role,
  type Touched,
} from '../core/access';
import { BadInputError, ConflictError, NotFoundError, type FieldProblem } from '../core/errors';
import { isIdRef } from '../core/grammar';
import type { ApiTokenState } from '../core/registry-edit';
import type { AccessVisibility, ApiTokenRecord, ChangeRecord, GrantRecord, Page, Window } from '../persistence/records';
import { newId } from './ids';
import { requireWellFormedRef, type ChangeOutcome, type ChangeRequest, type RegistryWrites } from './registry-writes';
import type { ReadSession } from './versioning';

/** The prefix of every API token secret, so that secret scanners can find a leaked one. */
export const SECRET_PREFIX = 'trg_';

/** Random bytes in a secret (base64url after the prefix). */
const SECRET_BYTES = 32;

/** How stale a token's lastUsedAt may get before a request writes it again. */
export const LAST_USED_PRECISION_MS = 5 * 60_000;

/** Most grants one token may carry. */
const MAX_TOKEN_GRANTS = 32;

/** Input of grantRole. */
export interface GrantRoleCommand {
  readonly principal: string;
  readonly role: Role;
  readonly namespace: string;
}

/** Input of createApiToken. */
export interface CreateApiTokenCommand {
  readonly name: string;
  readonly grants: readonly { readonly role: Role; readonly namespace: string }[];
  /** ISO-8601; null: it does not expire. */
  readonly expiresAt: string | null;
}

/** A new token and its secret, which is shown this once. */
export interface CreatedApiToken {
  readonly token: ApiTokenRecord;
  readonly secret: string;
}

/** An API token as authentication finds it: its principal, or why it does not authenticate. */
export type TokenAuthentication = { readonly principal: Principal } | { readonly failure: string };

/**
 * Who may do what: the principal's grants, the answers of the access rules
 * (core/access.ts) for the viewer, the dashboard and the change log, and the
 * changes to access itself (grants and API tokens), which go through
 * RegistryWrites like every other change, so they move the version and are
 * logged (as GRANT and API_TOKEN entries, shown only to OWNERs there).
 */
export class AccessService {
  /** Per token: when this instance last wrote its lastUsedAt (ms), so a busy token writes at most every few minutes. */
  private readonly usesNoted = new Map<string, number>();
  /** When configured grants took effect: this server's start. */
  private readonly startedAt = new Date().toISOString();

  constructor(
    private readonly writes: RegistryWrites,
    private readonly options: {
      /** Names of the tokens configured in the environment (admin, read, ADMIN_TOKENS'): no API token may take them. */
      readonly staticTokenNames: readonly string[];
      /** Writes a token's lastUsedAt (bookkeeping, no version). */
      readonly noteTokenUse: (tokenId: string, at: string) => Promise<void>;
      /** A fresh read session: a long-lived subscription asks at the version now, not at the one it started at. */
      readonly newSession: () => ReadSession;
    },
  ) {}

  // --- principals --------------------------------------------------------------------

  /** Every grant a principal holds: configured, its own and its groups' (kept across requests while access is unchanged). */
  async grantsOf(principal: Principal | null, session: ReadSession): Promise<Grant[]> {
    if (principal === null) return [];
    // A configured admin (or open development mode) holds everything, and no grant may be given to it.
    if (ownsEverything(principal)) return [...principal.builtIn];
    const stored = await session.grantsOf(grantHolders(principal));
    return [...principal.builtIn, ...stored];
  }

  /**
   * Every grant a principal holds, as records: the configured ones (a static
   * admin token's, open development mode's) with a `config:` id, as the
   * environment gave them when this server started.
   */
  async grantRecordsOf(principal: Principal | null, session: ReadSession): Promise<GrantRecord[]> {
    if (principal === null) return [];
    const stored = ownsEverything(principal) ? [] : await session.grantsOf(grantHolders(principal));
    const configured = principal.builtIn.map((grant) => ({
      id: `config:${grant.principal}:${grant.namespace}`,
      ...grant,
      grantedBy: 'config',
      createdAt: this.startedAt,
    }));
    return [...configured, ...stored];
  }

  /**
   * The principal of an API token secret (`trg_…`), or why it does not
   * authenticate: unknown, revoked or expired. Only the secret's SHA-256 is
   * looked up. Notes the use (lastUsedAt) at most every few minutes.
   */
  authenticateToken(secret: string, session: ReadSession): TokenAuthentication | Promise<TokenAuthentication> {
    const digest = secretDigest(secret);
    // Known at the request's version without a wait (kept, and no access change since): answered at once.
    const known = session.apiTokenByDigestNow(digest);
    if (known !== undefined) return this.authenticationOf(known);
    return session.apiTokenByDigest(digest).then((token) => this.authenticationOf(token));
  }

  private authenticationOf(token: ApiTokenRecord | null): TokenAuthentication | Promise<TokenAuthentication> {
    if (token === null) return { failure: 'unknown API token' };
    if (token.revokedAt !== null) return { failure: `API token ${token.name} was revoked` };
    const now = Date.now();
    if (token.expiresAt !== null && Date.parse(token.expiresAt) <= now) {
      return { failure: `API token ${token.name} expired` };
    }
    const found = { principal: { id: tokenPrincipal(token.name), groups: [], builtIn: [], apiToken: token.name } };
    const noting = this.noteUse(token, now);
    return noting ? noting.then(() => found) : found;
  }

  /**
   * Writes the token's lastUsedAt when it is more than LAST_USED_PRECISION_MS
   * old (at most that often per token and instance). Awaited, so that a
   * request that wrote it has written it when it answers; a failed write
   * costs nothing but an older lastUsedAt.
   */
  private noteUse(token: ApiTokenRecord, now: number): Promise<void> | undefined {
    const last = Math.max(token.lastUsedAt ? Date.parse(token.lastUsedAt) : 0, this.usesNoted.get(token.id) ?? 0);
    if (now - last < LAST_USED_PRECISION_MS) return undefined;
    this.usesNoted.set(token.id, now);
    return this.options.noteTokenUse(token.id, new Date(now).toISOString()).catch(() => {
      this.usesNoted.delete(token.id);
    });
  }

  // --- the rules, asked ---------------------------------------------------------------

  /**
   * What `operation`'s role check answers for `ref` (viewer.can): the same
   * rule and the same check as the mutation's, on the namespace of what the
   * ref names (a thing by id or name, a namespace, a grant id, a token). An
   * unknown operation is BAD_USER_INPUT; a ref that finds nothing is false.
   */
  async can(principal: Principal | null, operation: string, ref: string, session: ReadSession): Promise<boolean> {
    const rule = ruleOf(operation);
    if (!rule) {
      throw new BadInputError([{ field: 'operation', message: `operation '${operation}' is not a mutation` }]);
    }
    requireWellFormedRef('ref', ref);
    if (principal === null) return false;
    const namespaces = await this.namespacesOfRef(rule.target, ref, session);
    if (namespaces === null) return false;
    return authorize(principal.id, await this.grantsOf(principal, session), requirementsOn(rule, namespaces)) === null;
  }

  /** The namespaces a mutation's ref stands for, or null when it names nothing. */
  private async namespacesOfRef(
    target: NonNullable<ReturnType<typeof ruleOf>>['target'],
    ref: string,
    session: ReadSession,
  ): Promise<string[] | null> {
    switch (target) {
      case 'resourceType':
        return [EVERY_NAMESPACE];
      case 'resource':
      case 'project':
      case 'tool': {
        if (!isIdRef(ref)) return [namespaceOf(ref)];
        const loader =
          target === 'resource' ? session.resourceById : target === 'project' ? session.projectById : session.toolById;
        const found = await loader.load(ref);
        return found ? [namespaceOf(found.name)] : null;
      }
      case 'namespace':
        return checkNamespace(ref) === null ? [normalizeNamespace(ref)] : null;
      case 'grant': {
        if (!isIdRef(ref)) return checkNamespace(ref) === null ? [normalizeNamespace(ref)] : null;
        const [grant] = await session.grantsByIds([ref]);
        return grant ? [grant.namespace] : null;
      }
      case 'apiToken': {
        const token = await session.apiTokenByRef(ref);
        if (!token) return null;
        const grants = await session.grantsOf([tokenPrincipal(token.name)]);
        return grants.length > 0 ? grants.map((g) => g.namespace) : [EVERY_NAMESPACE];
      }
    }
  }

  /**
   * The namespaces whose access entries (GRANT, API_TOKEN) a principal may
   * see in the change log: null for all (an OWNER of `*`), else those it owns.
   */
  async visibleAccessNamespaces(principal: Principal | null, session: ReadSession): Promise<string[] | null> {
    return ownedNamespaces(await this.grantsOf(principal, session));
  }

  /**
   * Whether one change-log entry may be shown to a principal (the rule of
   * core/access.ts, canSeeChange): every registry entry to anyone who may
   * read; an access entry only to an OWNER of its namespace. Reads the
   * principal's grants only for an access entry: with `session`, at its
   * version; without, at the version now (for live updates, whose
   * subscription may have started long before a grant changed). For node
   * lookups and live updates alike (the change log's query filters in SQL
   * by visibleAccessNamespaces, the same rule).
   */
  canSeeChange(principal: Principal | null, entry: ChangeRecord, session?: ReadSession): boolean | Promise<boolean> {
    // Every registry entry, at once (no promise: a subscriber gets every entry through here).
    if (canSeeChange([], entry.kind, entry.namespace)) return true;
    return this.grantsOf(principal, session ?? this.options.newSession()).then((grants) =>
      canSeeChange(grants, entry.kind, entry.namespace),
    );
  }

  /** Whether a grant may be shown to a principal (core/access.ts, canSeeGrant), e.g. through node(id). */
  async canSeeGrant(principal: Principal | null, grant: GrantRecord, session: ReadSession): Promise<boolean> {
    if (principal === null) return false;
    return canSeeGrant(await this.grantsOf(principal, session), grantHolders(principal), grant);
  }

  /** Whether an API token may be shown to a principal (core/access.ts, canSeeToken), e.g. through node(id). */
  async canSeeToken(principal: Principal | null, token: ApiTokenRecord, session: ReadSession): Promise<boolean> {
    if (principal === null) return false;
    const namespaces = (await this.tokenGrants(token, session)).map((g) => g.namespace);
    return canSeeToken(await this.grantsOf(principal, session), grantHolders(principal), token.createdBy, namespaces);
  }

  // --- reads --------------------------------------------------------------------------

  /** A page of grants, of those the principal may see: on namespaces it owns, and its own. */
  async pageGrants(
    filter: { namespace: string | null; principal: string | null },
    window: Window<string>,
    principal: Principal | null,
    session: ReadSession,
  ): Promise<Page<GrantRecord>> {
    const problems: FieldProblem[] = [];
    const namespaceProblem = filter.namespace === null ? null : checkNamespace(filter.namespace);
    if (namespaceProblem) problems.push({ field: 'filter.namespace', message: `filter.namespace ${namespaceProblem}` });
    const principalProblem = filter.principal === null ? null : checkPrincipal(filter.principal);
    if (principalProblem) problems.push({ field: 'filter.principal', message: `filter.principal ${principalProblem}` });
    if (problems.length > 0) throw new BadInputError(problems);
    return session.pageGrants(
      {
        namespace: filter.namespace === null ? null : normalizeNamespace(filter.namespace),
        principal: filter.principal,
        visible: await this.visibility(principal, session),
      },
      window,
    );
  }

  /** A page of API tokens the principal may see: those it made, and those with a grant on a namespace it owns. */
  async pageApiTokens(
    window: Window<string>,
    principal: Principal | null,
    session: ReadSession,
  ): Promise<Page<ApiTokenRecord>> {
    return session.pageApiTokens(await this.visibility(principal, session), window);
  }

  /** A token's grants now (none once it is revoked). */
  tokenGrants(token: ApiTokenRecord, session: ReadSession): Promise<GrantRecord[]> {
    return session.grantsOf([tokenPrincipal(token.name)]);
  }

  private async visibility(principal: Principal | null, session: ReadSession): Promise<AccessVisibility> {
    return {
      namespaces: ownedNamespaces(await this.grantsOf(principal, session)),
      principals: principal ? grantHolders(principal) : [],
    };
  }

  // --- writes -------------------------------------------------------------------------

  /**
   * Gives a principal a role on a namespace (or `*`). Needs OWNER there, and
   * nobody grants more than they hold there. A principal holds at most one
   * role per namespace: a second grant there is CONFLICT (revoke, then grant).
   */
  grantRole(command: GrantRoleCommand, request: ChangeRequest): Promise<ChangeOutcome<GrantRecord>> {
    const problems: FieldProblem[] = [];
    const principalProblem = checkPrincipal(command.principal);
    if (principalProblem) problems.push({ field: 'input.principal', message: `input.principal ${principalProblem}` });
    else if (this.isStaticToken(command.principal)) {
      problems.push({
        field: 'input.principal',
        message: `input.principal ${command.principal} is a token configured in the server's environment; its role comes from there`,
      });
    }
    const namespaceProblem = checkNamespace(command.namespace);
    if (namespaceProblem) problems.push({ field: 'input.namespace', message: `input.namespace ${namespaceProblem}` });
    if (problems.length > 0) throw new BadInputError(problems);
    const namespace = normalizeNamespace(command.namespace);
    return this.writes.change(
      request,
      async ({ writer }) => {
        // A token's grants go to a live token only: a grant waiting for a name would go to whoever made it first.
        if (command.principal.startsWith('token:')) {
          const name = command.principal.slice('token:'.length);
          const [live] = await writer.reader.apiTokensByNames([name]);
          if (!live || live.revokedAt !== null) {
            throw new NotFoundError(
              'API token',
              name,
              `no live API token named '${name}'${live ? ' (it was revoked)' : ''}: a role is granted to a token that exists`,
            );
          }
        }
        const existing = await writer.reader.grantOn(command.principal, namespace);
        if (existing) {
          throw new ConflictError(
            `${command.principal} already holds ${existing.role} on ${namespace} (grant ${existing.id}); revoke that grant first to change the role`,
          );
        }
        const grant: GrantRecord = {
          id: newId(),
          principal: command.principal,
          role: command.role,
          namespace,
          grantedBy: request.principal.id,
          createdAt: writer.at,
        };
        await writer.insertGrant(grant);
        return grant;
      },
      () => new ConflictError(`${command.principal} already holds a role on ${namespace}`),
      [{ namespace, role: command.role }],
    );
  }

  /** Takes a grant back, by id. Needs OWNER on its namespace. Unknown: NOT_FOUND. */
  revokeRole(id: string, request: ChangeRequest): Promise<ChangeOutcome<string>> {
    requireWellFormedRef('input.id', id);
    return this.writes.change(request, async ({ writer }) => {
      const [grant] = isIdRef(id) ? await writer.reader.grantsByIds([id]) : [];
      if (!grant) throw new NotFoundError('grant', id, `no grant '${id}' exists`);
      await writer.deleteGrant(grant);
      return grant.id;
    });
  }

  /**
   * Makes an API token, principal `token:<name>`, with its grants (role
   * grants to that principal, each needing OWNER on its namespace, never more
   * than the creator holds there). Returns its secret this once: `trg_` and
   * 32 random bytes in base64url. Only the secret's SHA-256 is stored. Names
   * are unique ignoring case and never used again, revoked tokens included.
   */
  createApiToken(command: CreateApiTokenCommand, request: ChangeRequest): Promise<ChangeOutcome<CreatedApiToken>> {
    const grants = this.checkTokenCommand(command);
    const secret = SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64url');
    const touched: Touched[] = grants.map((g) => ({ namespace: g.namespace, role: g.role }));
    return this.writes.change(
      request,
      async ({ writer }) => {
        const [taken] = await writer.reader.apiTokensByNames([command.name]);
        if (taken) {
          throw new ConflictError(
            `an API token named '${taken.name}' exists${taken.revokedAt ? ' (revoked: names are not used again)' : ''}; choose another name`,
          );
        }
        const state: ApiTokenState = {
          id: newId(),
          name: command.name,
          namespaces: [...new Set(grants.map((g) => g.namespace))],
          createdBy: request.principal.id,
          createdAt: writer.at,
          expiresAt: command.expiresAt,
          revokedAt: null,
        };
        await writer.insertApiToken(state, secretDigest(secret));
        for (const grant of grants) {
          await writer.insertGrant({
            id: newId(),
            principal: tokenPrincipal(command.name),
            role: grant.role,
            namespace: grant.namespace,
            grantedBy: request.principal.id,
            createdAt: writer.at,
          });
        }
        const token: ApiTokenRecord = {
          id: state.id,
          name: state.name,
          createdBy: state.createdBy,
          createdAt: state.createdAt,
          expiresAt: state.expiresAt,
          lastUsedAt: null,
          revokedAt: null,
        };
        return { token, secret };
      },
      () => new ConflictError(`an API token named '${command.name}' exists; choose another name`),
      touched,
    );
  }

  /**
   * Revokes an API token (by id or name): it authenticates nothing from the
   * next request on, on every instance, and its grants go. Needs OWNER on the
   * namespace of each of its grants. Unknown: NOT_FOUND; revoked already: CONFLICT.
   */
  revokeApiToken(ref: string, request: ChangeRequest): Promise<ChangeOutcome<ApiTokenRecord>> {
    requireWellFormedRef('input.ref', ref);
    return this.writes.change(request, async ({ writer }) => {
      const [token] = isIdRef(ref)
        ? [await writer.reader.apiTokenByRef(ref)]
        : await writer.reader.apiTokensByNames([ref]);
      if (!token) throw new NotFoundError('API token', ref);
      if (token.revokedAt !== null) throw new ConflictError(`API token ${token.name} is revoked already`);
      const grants = await writer.reader.grantsOf([tokenPrincipal(token.name)]);
      const state: ApiTokenState = {
        id: token.id,
        name: token.name,
        namespaces: [...new Set(grants.map((g) => g.namespace))],
        createdBy: token.createdBy,
        createdAt: token.createdAt,
        expiresAt: token.expiresAt,
        revokedAt: null,
      };
      const after = await writer.revokeApiToken(state);
      for (const grant of grants) await writer.deleteGrant(grant);
      return { ...token, revokedAt: after.revokedAt };
    });
  }

  /** createApiToken's input, checked: every problem at once. Its grants, namespaces normalized. */
  private checkTokenCommand(command: CreateApiTokenCommand): { role: Role; namespace: string }[] {
    const problems: FieldProblem[] = [];
    if (!TOKEN_NAME_PATTERN.test(command.name)) {
      problems.push({
        field: 'input.name',
        message: 'input.name must be 1 to 64 letters, digits, ".", "_" and "-"',
      });
    } else if (this.isStaticToken(tokenPrincipal(command.name))) {
      problems.push({
        field: 'input.name',
        message: `input.name '${command.name}' is the name of a token configured in the server's environment`,
      });
    }
    if (command.grants.length === 0 || command.grants.length > MAX_TOKEN_GRANTS) {
      problems.push({ field: 'input.grants', message: `input.grants must list 1 to ${MAX_TOKEN_GRANTS} grants` });
    }
    const seen = new Set<string>();
    command.grants.forEach((grant, i) => {
      const problem = checkNamespace(grant.namespace);
      const field = `input.grants[${i}].namespace`;
      if (problem) problems.push({ field, message: `${field} ${problem}` });
      else if (seen.has(normalizeNamespace(grant.namespace))) {
        problems.push({ field, message: `${field} repeats a namespace: give each namespace one role` });
      }
      seen.add(normalizeNamespace(grant.namespace));
    });
    if (command.expiresAt !== null && Date.parse(command.expiresAt) <= Date.now()) {
      problems.push({ field: 'input.expiresAt', message: 'input.expiresAt must be in the future' });
    }
    if (problems.length > 0) throw new BadInputError(problems);
    return command.grants.map((g) => ({ role: g.role, namespace: normalizeNamespace(g.namespace) }));
  }

  private isStaticToken(principal: string): boolean {
    return this.options.staticTokenNames.some((name) => tokenPrincipal(name).toLowerCase() === principal.toLowerCase());
  }
}

/** The SHA-256 of a secret, in hex: what the api_token table keeps. */
export function secretDigest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
