import { Field, ID, InputType } from 'type-graphql';
import { checkNamespace, checkPrincipal, TOKEN_NAME_PATTERN } from '../../core/access';
import { checkRef } from '../../core/grammar';
import { DateTime } from '../types/date-time.scalar';
import { Role } from '../types/enums';
import { Satisfies } from '../validation';

const checkTokenName = (name: string) =>
  TOKEN_NAME_PATTERN.test(name) ? null : 'must be 1 to 64 letters, digits, ".", "_" and "-"';

@InputType({ description: 'A role to give a principal on a namespace.' })
export class GrantRoleInput {
  @Field({ description: 'Who: user:<subject>, group:<name> or token:<name>.' })
  @Satisfies(checkPrincipal)
  principal!: string;

  @Field(() => Role, { description: 'The role; it includes the roles below it.' })
  role!: Role;

  @Field({ description: 'A namespace (the first segment of names, e.g. acme), or * for every namespace.' })
  @Satisfies(checkNamespace)
  namespace!: string;
}

@InputType({ description: 'The grant to revoke.' })
export class RevokeRoleInput {
  @Field(() => ID, { description: 'The grant (RoleGrant.id).' })
  @Satisfies(checkRef)
  id!: string;
}

@InputType({ description: 'One role an API token holds.' })
export class ApiTokenGrantInput {
  @Field(() => Role, { description: 'The role; at most what its creator holds there.' })
  role!: Role;

  @Field({ description: 'A namespace, or * for every namespace.' })
  @Satisfies(checkNamespace)
  namespace!: string;
}

@InputType({ description: 'A new API token.' })
export class CreateApiTokenInput {
  @Field({
    description:
      'Unique ignoring case, never used again (even once revoked); its principal is token:<name>. Letters, digits, ".", "_" and "-".',
  })
  @Satisfies(checkTokenName)
  name!: string;

  @Field(() => [ApiTokenGrantInput], { description: 'What it may do: one role per namespace, 1 to 32 of them.' })
  grants!: ApiTokenGrantInput[];

  @Field(() => DateTime, { nullable: true, description: 'When it stops authenticating (in the future); null: never.' })
  expiresAt!: string | null;
}

@InputType({ description: 'The API token to revoke.' })
export class RevokeApiTokenInput {
  @Field({ description: 'The token: its id or its name.' })
  @Satisfies(checkRef)
  ref!: string;
}

@InputType({ description: 'Which role grants to list; every field given must match.' })
export class RoleGrantFilter {
  @Field(() => String, { nullable: true, description: 'Only grants on this namespace (or *).' })
  @Satisfies(checkNamespace)
  namespace!: string | null;

  @Field(() => String, { nullable: true, description: 'Only grants to this principal.' })
  @Satisfies(checkPrincipal)
  principal!: string | null;
}
