import { createHash } from 'node:crypto';
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
  type Grant,
  type Principal,
} from '../core/access';
import { BadInputError, type FieldProblem } from '../core/errors';
import { isIdRef } from '../core/grammar';
import type { AccessVisibility, ApiTokenRecord, ChangeHead, GrantRecord, Page, Window } from '../persistence/records';
import { requireWellFormedRef, type RegistryWrites } from './registry-writes';
import type { ReadSession } from './versioning';

/** The prefix of every API token secret, so that secret scanners can find a leaked one. */
export const SECRET_PREFIX = 'trg_';

/** How stale a token's lastUsedAt may get before a request writes it again. */
export const LAST_USED_PRECISION_MS = 5 * 60_000;

/** An API token as authentication finds it: its principal, or why it does not authenticate. */
export type TokenAuthentication = { readonly principal: Principal } | { readonly failure: string };

/**
 * Who may do what: the principal's grants, and the answers of the access
 * rules (core/access.ts) for the viewer, the dashboard and the change log.
 * The changes to access itself are ./access-changes.service.ts's.
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
    const stored = await session.access.grantsOf(grantHolders(principal));
    return [...principal.builtIn, ...stored];
  }

  /**
   * Every grant a principal holds, as records: the configured ones (a static
   * admin token's, open development mode's) with a `config:` id, as the
   * environment gave them when this server started.
   */
  async grantRecordsOf(principal: Principal | null, session: ReadSession): Promise<GrantRecord[]> {
    if (principal === null) return [];
    const stored = ownsEverything(principal) ? [] : await session.access.grantsOf(grantHolders(principal));
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
    const known = session.access.apiTokenByDigestNow(digest);
    if (known !== undefined) return this.authenticationOf(known);
    return session.access.apiTokenByDigest(digest).then((token) => this.authenticationOf(token));
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
        const [grant] = await session.access.grantsByIds([ref]);
        return grant ? [grant.namespace] : null;
      }
      case 'apiToken': {
        const token = await session.access.apiTokenByRef(ref);
        if (!token) return null;
        const grants = await session.access.grantsOf([tokenPrincipal(token.name)]);
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
  canSeeChange(
    principal: Principal | null,
    entry: Pick<ChangeHead, 'kind' | 'namespace'>,
    session?: ReadSession,
  ): boolean | Promise<boolean> {
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
    return session.access.pageGrants(
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
    return session.access.pageApiTokens(await this.visibility(principal, session), window);
  }

  /** A token's grants now (none once it is revoked). */
  tokenGrants(token: ApiTokenRecord, session: ReadSession): Promise<GrantRecord[]> {
    return session.access.grantsOf([tokenPrincipal(token.name)]);
  }

  private async visibility(principal: Principal | null, session: ReadSession): Promise<AccessVisibility> {
    return {
      namespaces: ownedNamespaces(await this.grantsOf(principal, session)),
      principals: principal ? grantHolders(principal) : [],
    };
  }

  // --- writes -------------------------------------------------------------------------
}

/** The SHA-256 of a secret, in hex: what the api_token table keeps. */
export function secretDigest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
