/**
 * Who may change what: principals, namespaces, roles, the rule of every
 * mutation, and the one check that says whether a principal's grants allow a
 * change. Pure: the callers pass in the grants and what a change touches.
 */
/** The roles, each including the ones before it. */
export const ROLES = ['VIEWER', 'EDITOR', 'OWNER'] as const;
export type Role = (typeof ROLES)[number];

/** The namespace of every namespace and of the global scope: only grants on it reach names without a '/'. */
export const EVERY_NAMESPACE = '*';

/** What a principal is: a signed-in user, a group of users (from the token's groups claim), or an API token. */
export const PRINCIPAL_KINDS = ['user', 'group', 'token'] as const;
export type PrincipalKind = (typeof PRINCIPAL_KINDS)[number];

/** Longest principal string (`user:` and the subject included). */
export const MAX_PRINCIPAL_LENGTH = 200;

/** Namespace names: one segment of a name, at most this long. */
export const MAX_NAMESPACE_LENGTH = 100;

/** API token names: as ADMIN_TOKENS' names. */
export const TOKEN_NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** A role held by a principal on a namespace (or on `*`). */
export interface Grant {
  readonly principal: string;
  readonly role: Role;
  readonly namespace: string;
}

/** Who makes a request, as the rules see it. */
export interface Principal {
  /** `user:<subject>`, `token:<name>`, or `anonymous` (open development mode). */
  readonly id: string;
  /** Its groups, each `group:<name>` (a signed-in user's, from its token). */
  readonly groups: readonly string[];
  /** Grants it holds without a stored one: OWNER on `*` for the static admin tokens, and for anyone in open development mode. */
  readonly builtIn: readonly Grant[];
  /** For an API token: its name (a write checks, in its own transaction, that the token still authenticates). */
  readonly apiToken: string | null;
}

/** A principal that holds OWNER on `*` by configuration: a static admin token, anyone in open development mode. */
export function ownerOfEverything(id: string): Principal {
  return { id, groups: [], builtIn: [{ principal: id, role: 'OWNER', namespace: EVERY_NAMESPACE }], apiToken: null };
}

/** True when a principal's configured grants already allow everything (no stored grant can add to them). */
export function ownsEverything(principal: Principal): boolean {
  return includesRole(roleOn(principal.builtIn, EVERY_NAMESPACE), 'OWNER');
}

/** What the read rule reads of a caller: whether it may read, and why its credential was refused, if it was. */
export interface ReadStanding {
  /** Reads are open, or it carries a credential that checks out (src/engine/authentication.ts). */
  readonly canRead: boolean;
  readonly failure: string | null;
}

/**
 * The read rule, the one place it is written: null when the caller may read,
 * else why not (a credential that did not check out, and which check; or none
 * where reads need one). Every read path asks it: the fields' authChecker
 * (type-graphql's and the direct resolvers'), the engine before any
 * operation runs (src/engine/read-access.ts), introspection included, the
 * direct path, the response cache and subscriptions.
 */
export function readRefusal(caller: ReadStanding): string | null {
  if (caller.canRead) return null;
  return caller.failure !== null
    ? `not authenticated: ${caller.failure}`
    : "reading the registry needs a token: send Authorization: Bearer <a read, admin or API token, or a signed-in user's JWT>";
}

/** The principals whose grants a principal holds: itself and its groups. */
export function grantHolders(principal: Principal): string[] {
  return [principal.id, ...principal.groups];
}

/** True when `held` includes `needed` (OWNER includes EDITOR includes VIEWER). */
export function includesRole(held: Role | null, needed: Role): boolean {
  return held !== null && ROLES.indexOf(held) >= ROLES.indexOf(needed);
}

/** The higher of two roles. */
export function higherRole(a: Role, b: Role): Role {
  return ROLES.indexOf(a) >= ROLES.indexOf(b) ? a : b;
}

/**
 * Rule: the namespace of a name is its first segment when it has a '/'
 * (`acme/app-repo` is in `acme`); a name without one is in the global scope,
 * `*`. Names are unique ignoring case, so namespaces are too: lowercased.
 */
export function namespaceOf(name: string): string {
  const slash = name.indexOf('/');
  return slash < 0 ? EVERY_NAMESPACE : name.slice(0, slash).toLowerCase();
}

/** A namespace as grants store it: `*`, or a name segment lowercased. */
export function normalizeNamespace(namespace: string): string {
  return namespace === EVERY_NAMESPACE ? namespace : namespace.toLowerCase();
}

/** Rule: the highest role the grants give on a namespace; grants on `*` reach every namespace and the global scope. */
export function roleOn(grants: readonly Grant[], namespace: string): Role | null {
  const wanted = normalizeNamespace(namespace);
  let best: Role | null = null;
  for (const grant of grants) {
    if (grant.namespace !== EVERY_NAMESPACE && grant.namespace !== wanted) continue;
    if (best === null || includesRole(grant.role, best)) best = grant.role;
  }
  return best;
}

/** A namespace given in input: `*`, or one segment of name characters. A message when it is not, else null. */
export function checkNamespace(namespace: string): string | null {
  if (namespace === EVERY_NAMESPACE) return null;
  if (namespace.length === 0) return 'must not be empty';
  if (namespace.length > MAX_NAMESPACE_LENGTH) return `must be at most ${MAX_NAMESPACE_LENGTH} characters`;
  if (!/^[A-Za-z0-9._-]+$/.test(namespace)) {
    return 'must be * or one name segment (letters, digits, ".", "_" and "-"), e.g. acme for acme/app-repo';
  }
  return null;
}

/** A principal given in input: `user:<subject>`, `group:<name>` or `token:<name>`. A message when it is not, else null. */
export function checkPrincipal(principal: string): string | null {
  const colon = principal.indexOf(':');
  const kind = colon < 0 ? '' : principal.slice(0, colon);
  const rest = colon < 0 ? '' : principal.slice(colon + 1);
  if (!(PRINCIPAL_KINDS as readonly string[]).includes(kind) || rest.length === 0) {
    return 'must be user:<subject>, group:<name> or token:<name>';
  }
  if (principal.length > MAX_PRINCIPAL_LENGTH) return `must be at most ${MAX_PRINCIPAL_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\u0000-\u001F\u007F]/.test(rest) || rest.trim() !== rest) {
    return 'must not contain control characters or leading or trailing spaces';
  }
  if (kind === 'token' && !TOKEN_NAME_PATTERN.test(rest)) {
    return 'must name a token by letters, digits, ".", "_" and "-" (at most 64)';
  }
  return null;
}

/** The principal of an API token or a static token: `token:<name>`. */
export function tokenPrincipal(name: string): string {
  return `token:${name}`;
}

/**
 * What a mutation needs: a role on the namespace of everything it changes.
 * `global` mutations change what is always in the global scope (resource
 * types), so they need the role on `*`; `changed` ones need it on each
 * namespace their changes touch (see `namespacesOfEdit`). `target` is what
 * the mutation's ref (or new name) names, so that `viewer.can(operation, ref)`
 * finds the namespace to answer for.
 */
export interface MutationRule {
  readonly role: Role;
  readonly scope: 'global' | 'changed';
  readonly target: RuleTarget;
}

/** What a mutation's ref names: a thing of the registry (its namespace is its name's), a namespace, a grant or a token. */
export type RuleTarget = 'resourceType' | 'resource' | 'project' | 'tool' | 'namespace' | 'grant' | 'apiToken';

const edits = (target: RuleTarget): MutationRule => ({ role: 'EDITOR', scope: 'changed', target });
const EDIT_GLOBAL: MutationRule = { role: 'EDITOR', scope: 'global', target: 'resourceType' };
const owns = (target: RuleTarget): MutationRule => ({ role: 'OWNER', scope: 'changed', target });

/**
 * The rule of every mutation, by its field name. A mutation missing here is
 * refused to everyone (and the permission test fails on it).
 */
export const MUTATION_RULES: Readonly<Record<string, MutationRule>> = {
  // Rule: any resource type mutation needs EDITOR on `*`.
  registerResourceType: EDIT_GLOBAL,
  updateResourceType: EDIT_GLOBAL,
  deleteResourceType: EDIT_GLOBAL,
  // Rule: register, update and delete need EDITOR on the thing's namespace (a rename: the old and the new one).
  registerResource: edits('resource'),
  updateResource: edits('resource'),
  // Rule: a forced delete also needs EDITOR on the namespace of every project whose link it removes.
  deleteResource: edits('resource'),
  createProject: edits('project'),
  updateProject: edits('project'),
  deleteProject: edits('project'),
  // Rule: a tool needs EDITOR on its own namespace; a STATIC slot may name a resource it only reads.
  registerTool: edits('tool'),
  updateTool: edits('tool'),
  unregisterTool: edits('tool'),
  // Rule: a link belongs to its project: EDITOR on the project's namespace.
  linkResource: edits('project'),
  unlinkResource: edits('project'),
  updateLink: edits('project'),
  // Rule: a batch of registrations needs, entry by entry, what that entry's own mutation needs (checked per entry).
  registerBatch: edits('namespace'),
  // Rule: grants and tokens need OWNER on each namespace they give a role on, and never more than is held there.
  grantRole: owns('namespace'),
  revokeRole: owns('grant'),
  createApiToken: owns('namespace'),
  revokeApiToken: owns('apiToken'),
};

/** The rule of a mutation, or null when it has none (then it is refused). */
export function ruleOf(operation: string): MutationRule | null {
  return Object.prototype.hasOwnProperty.call(MUTATION_RULES, operation) ? MUTATION_RULES[operation] : null;
}

/** What a principal lacks for a change: the highest role missing, and every namespace where it is missing. */
export interface Refusal {
  readonly principal: string;
  readonly role: Role;
  readonly namespaces: readonly string[];
  /** The role the principal holds on the first missing namespace, if any. */
  readonly held: Role | null;
}

/** The role a change needs on each namespace: namespace → role. */
export type Requirements = ReadonlyMap<string, Role>;

/** A namespace a change touches, with the role it needs there beyond the mutation's own (a grant's role), if any. */
export interface Touched {
  readonly namespace: string;
  readonly role: Role | null;
}

/** What a mutation that touches these namespaces needs: on each, the mutation's role or more. */
export function requirementsOf(rule: MutationRule, touched: Iterable<Touched>): Requirements {
  const needs = new Map<string, Role>();
  const add = (namespace: string, role: Role) => {
    const before = needs.get(namespace);
    needs.set(namespace, before ? higherRole(before, role) : role);
  };
  if (rule.scope === 'global') add(EVERY_NAMESPACE, rule.role);
  for (const { namespace, role } of touched) add(namespace, role ? higherRole(rule.role, role) : rule.role);
  return needs;
}

/** What a mutation needs on the namespace of one target (a ref's name, or a namespace): what `viewer.can` asks. */
export function requirementsOn(rule: MutationRule, namespaces: readonly string[]): Requirements {
  const targets = rule.scope === 'global' ? [EVERY_NAMESPACE] : namespaces;
  return new Map(targets.map((namespace) => [normalizeNamespace(namespace), rule.role]));
}

/**
 * The one authorization rule: a principal may make a change when its grants
 * give, on every namespace the change touches, at least the role needed
 * there. Returns null when allowed, else what is missing (every namespace,
 * so a forced delete that reaches several teams names them all).
 */
export function authorize(principal: string, grants: readonly Grant[], needs: Requirements): Refusal | null {
  let role: Role | null = null;
  let held: Role | null | undefined;
  const namespaces: string[] = [];
  for (const [namespace, needed] of needs) {
    const has = roleOn(grants, namespace);
    if (includesRole(has, needed)) continue;
    namespaces.push(namespace);
    role = role ? higherRole(role, needed) : needed;
    if (held === undefined) held = has;
  }
  if (role === null) return null;
  return { principal, role, namespaces: namespaces.sort(), held: held ?? null };
}

/** A refusal as one sentence: who, which role, where. */
export function describeRefusal(refusal: Refusal, operation: string): string {
  const where = refusal.namespaces.map((n) => (n === EVERY_NAMESPACE ? '* (every namespace)' : n)).join(', ');
  const holds = refusal.held ? ` (it holds ${refusal.held})` : '';
  return `${refusal.principal} may not ${operation} here: it needs ${refusal.role} on ${where}${holds}`;
}

/** The change-log kinds that record access (grants and API tokens), shown only to OWNERs of their namespace. */
export const ACCESS_CHANGE_KINDS = ['GRANT', 'API_TOKEN'] as const;

/**
 * Rule: a change-log entry about access (a grant, an API token) is shown only
 * to a principal who is OWNER of its namespace (`*`: OWNER of `*`); every
 * other entry is shown to anyone who may read.
 */
export function canSeeChange(grants: readonly Grant[], kind: string, namespace: string | null): boolean {
  if (!(ACCESS_CHANGE_KINDS as readonly string[]).includes(kind)) return true;
  return includesRole(roleOn(grants, namespace ?? EVERY_NAMESPACE), 'OWNER');
}

/**
 * Rule: a grant is shown to an OWNER of its namespace (every grant to an
 * OWNER of `*`), and to the principal that holds it (itself or its group).
 */
export function canSeeGrant(grants: readonly Grant[], holders: readonly string[], grant: Grant): boolean {
  return holders.includes(grant.principal) || includesRole(roleOn(grants, grant.namespace), 'OWNER');
}

/**
 * Rule: an API token is shown to its creator, and to an OWNER of any
 * namespace it has a grant on (a token with none left: to OWNERs of `*`).
 */
export function canSeeToken(
  grants: readonly Grant[],
  holders: readonly string[],
  createdBy: string,
  namespaces: readonly string[],
): boolean {
  if (holders.includes(createdBy)) return true;
  const where = namespaces.length > 0 ? namespaces : [EVERY_NAMESPACE];
  return where.some((namespace) => includesRole(roleOn(grants, namespace), 'OWNER'));
}

/**
 * The namespaces whose access entries a principal may see: null for all (an
 * OWNER of `*`), else those it is OWNER of (possibly none).
 */
export function ownedNamespaces(grants: readonly Grant[]): string[] | null {
  const owned = new Set<string>();
  for (const grant of grants) {
    if (grant.role !== 'OWNER') continue;
    if (grant.namespace === EVERY_NAMESPACE) return null;
    owned.add(grant.namespace);
  }
  return [...owned].sort();
}

/** The namespace an access change-log entry is filed under: its one namespace, or `*` when it spans several. */
export function entryNamespace(namespaces: readonly string[]): string {
  const distinct = new Set(namespaces);
  return distinct.size === 1 ? [...distinct][0] : EVERY_NAMESPACE;
}
