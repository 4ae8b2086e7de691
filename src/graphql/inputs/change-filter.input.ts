import { Field, InputType, Int } from 'type-graphql';
import { checkPrincipal } from '../../core/access';
import { checkRef } from '../../core/grammar';
import { ChangeKind } from '../types/enums';
import { Satisfies } from '../validation';

/** An actor: a principal (user:…, token:…), or a bare name as entries written before principals say (admin, anonymous). */
const checkActor = (actor: string) =>
  /^[A-Za-z0-9._-]{1,64}$/.test(actor) || checkPrincipal(actor) === null
    ? null
    : 'must be an actor: a principal such as token:ci or user:alice, or a name such as anonymous';
const checkVersion = (version: number) => (version >= 0 ? null : 'must be 0 or more');

@InputType({ description: 'Which change-log entries to list; every field given must match.' })
export class ChangeFilter {
  @Field(() => ChangeKind, { nullable: true, description: 'Only entries about this kind of thing.' })
  kind!: ChangeKind | null;

  @Field(() => String, {
    nullable: true,
    description:
      "Only entries about this entity: its id, or any name it ever had (so a deleted or renamed entity's history can be found). For a link, its project's or its resource's.",
  })
  @Satisfies(checkRef)
  ref!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Only entries by this actor (a principal, e.g. token:ci or user:alice).',
  })
  @Satisfies(checkActor)
  actor!: string | null;

  @Field(() => Int, { nullable: true, description: 'Only entries of registry versions after this one.' })
  @Satisfies(checkVersion)
  sinceVersion!: number | null;
}
