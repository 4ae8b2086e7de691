import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Connection } from './connection.type';
import { Node } from './node.type';
import { DateTime } from './date-time.scalar';
import { Role } from './enums';

@ObjectType({
  description:
    'A role a principal holds on a namespace, or on * (every namespace and the global scope: names without a "/", and resource types).',
  implements: Node,
  simpleResolvers: true,
})
export class RoleGrant implements Node {
  @Field(() => ID, {
    description: 'The grant: revokeRole takes it. Built-in grants (a configured token) have a config: id.',
  })
  id!: string;

  @Field({ description: 'Who holds it: user:<subject>, group:<name> or token:<name>.' })
  principal!: string;

  @Field(() => Role, { description: 'The role, which includes the roles below it.' })
  role!: Role;

  @Field({ description: 'A namespace (the first segment of names, lowercase), or * for every namespace.' })
  namespace!: string;

  @Field({ description: 'The principal who granted it (config for a token configured in the environment).' })
  grantedBy!: string;

  @Field(() => DateTime, { description: 'When it was granted.' })
  createdAt!: string;
}

@ObjectType({ description: 'Role grants, a page at a time, oldest first (a Relay connection).' })
export class RoleGrantConnection extends Connection(RoleGrant, 'RoleGrant') {}

@ObjectType({
  description:
    'A token made in the registry, principal token:<name>. Its secret was shown once, at creation; only its SHA-256 is stored.',
  implements: Node,
})
export class ApiToken implements Node {
  @Field(() => ID, { description: 'The token: revokeApiToken takes it, or its name.' })
  id!: string;

  @Field({ description: 'Unique ignoring case, and never used again, even once revoked.' })
  name!: string;

  @Field({ description: 'token:<name>: the change log records it as the actor of what the token changes.' })
  principal!: string;

  @Field(() => [RoleGrant], { description: 'What it may do: its role grants (none once it is revoked).' })
  grants!: RoleGrant[];

  @Field({ description: 'The principal who created it.' })
  createdBy!: string;

  @Field(() => DateTime, { description: 'When it was created.' })
  createdAt!: string;

  @Field(() => DateTime, { nullable: true, description: 'When it stops authenticating; null: never.' })
  expiresAt!: string | null;

  @Field(() => DateTime, { nullable: true, description: 'When it last authenticated a request (to within 5 minutes).' })
  lastUsedAt!: string | null;

  @Field(() => DateTime, { nullable: true, description: 'When it was revoked; null while it is live.' })
  revokedAt!: string | null;
}

@ObjectType({ description: 'API tokens, a page at a time, oldest first (a Relay connection).' })
export class ApiTokenConnection extends Connection(ApiToken, 'ApiToken') {}

@ObjectType({ description: 'Who is asking, and what they may do.' })
export class Viewer {
  @Field(() => String, {
    nullable: true,
    description:
      'user:<subject> (signed in), token:<name> (an admin, read or API token), anonymous (open development mode), or null (no credential).',
  })
  principal!: string | null;

  @Field(() => [String], { description: "The principal's groups, each group:<name> (from its sign-in token)." })
  groups!: string[];

  @Field(() => [RoleGrant], { description: "Every role it holds: its own grants, its groups', and built-in ones." })
  grants!: RoleGrant[];
}

/** A payload field for a change's registry version. */
const REGISTRY_VERSION = { description: 'The version the change committed; for a dry run, the current version.' };
const DRY_RUN = {
  description: 'True when the mutation only previewed the change: nothing was stored, versioned or logged.',
};

@ObjectType({ description: 'The result of grantRole.', simpleResolvers: true })
export class GrantRolePayload {
  @Field(() => RoleGrant, { nullable: true, description: 'The grant as stored; null for a dry run.' })
  grant!: RoleGrant | null;

  @Field(DRY_RUN)
  dryRun!: boolean;

  @Field(() => Int, REGISTRY_VERSION)
  registryVersion!: number;
}

@ObjectType({ description: 'The result of revokeRole.', simpleResolvers: true })
export class RevokeRolePayload {
  @Field(() => ID, { description: 'The id of the grant revoked (for a dry run, that would be).' })
  deletedId!: string;

  @Field(DRY_RUN)
  dryRun!: boolean;

  @Field(() => Int, REGISTRY_VERSION)
  registryVersion!: number;
}

@ObjectType({ description: 'The result of createApiToken: the token, and its secret, shown this once.' })
export class CreateApiTokenPayload {
  @Field(() => ApiToken, { description: 'The token as stored.' })
  token!: ApiToken;

  @Field({
    description:
      'Send it as Authorization: Bearer <secret>. Shown only here: it cannot be read again (only its SHA-256 is stored). Starts with trg_.',
  })
  secret!: string;

  @Field(() => Int, { description: 'The version the change committed.' })
  registryVersion!: number;
}

@ObjectType({ description: 'The result of revokeApiToken.' })
export class RevokeApiTokenPayload {
  @Field(() => ApiToken, { nullable: true, description: 'The token, revoked; null for a dry run.' })
  token!: ApiToken | null;

  @Field(DRY_RUN)
  dryRun!: boolean;

  @Field(() => Int, REGISTRY_VERSION)
  registryVersion!: number;
}
