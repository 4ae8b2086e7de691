import { randomBytes } from 'node:crypto';
import {
  checkNamespace,
  checkPrincipal,
  normalizeNamespace,
  tokenPrincipal,
  TOKEN_NAME_PATTERN,
  type Role,
  type Touched,
} from '../core/access';
import { BadInputError, ConflictError, NotFoundError, type FieldProblem } from '../core/errors';
import { isIdRef } from '../core/grammar';
import type { ApiTokenState } from '../core/registry-edit';
import type { ApiTokenRecord, GrantRecord } from '../persistence/records';
import { SECRET_PREFIX, secretDigest } from './access.service';
import { newId } from './ids';
import { requireWellFormedRef, type ChangeOutcome, type ChangeRequest, type RegistryWrites } from './registry-writes';

/** Random bytes in a secret (base64url after the prefix). */
const SECRET_BYTES = 32;

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

/**
 * The changes to access itself: grants given and taken back, API tokens made
 * and revoked. They go through RegistryWrites like every other change, so
 * each is authorized by the mutation's rule (core/access.ts), moves the
 * version and is logged (as GRANT and API_TOKEN entries, shown only to
 * OWNERs there).
 */
export class AccessChangeService {
  constructor(
    private readonly writes: RegistryWrites,
    /** Names of the tokens configured in the environment (admin, read, ADMIN_TOKENS'): no API token may take them. */
    private readonly staticTokenNames: readonly string[],
  ) {}

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
    return this.staticTokenNames.some((name) => tokenPrincipal(name).toLowerCase() === principal.toLowerCase());
  }
}
