import { DateTime } from './date-time.scalar';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { BindingChange } from './binding-impact.type';
import { Connection } from './connection.type';
import { Node } from './node.type';
import { ChangeKind } from './enums';

@ObjectType({
  description: 'One entry of the change log: one edit of a committed mutation, written in its transaction.',
  implements: Node,
  simpleResolvers: true,
})
export class RegistryChange implements Node {
  @Field(() => ID, { description: 'Unique across every type; node(id) finds the entry again.' })
  id!: string;

  @Field(() => Int, { description: 'The registry version the mutation committed (several entries may share it).' })
  version!: number;

  @Field(() => DateTime, { description: 'When the mutation committed.' })
  at!: string;

  @Field({
    description:
      'Who: the principal (user:<subject> signed in, token:<name> for an API token or a configured one: token:admin for ADMIN_TOKEN), or anonymous (no token configured). Entries written before principals keep the bare name they had (admin).',
  })
  actor!: string;

  @Field({ description: "The mutation field's name, e.g. deleteResource." })
  operation!: string;

  @Field(() => ChangeKind, { description: 'What the entry is about.' })
  kind!: ChangeKind;

  @Field(() => ID, { description: 'The thing changed (for a LINK, its project).' })
  entityId!: string;

  @Field({ description: 'Its name after the change (before it, for a delete).' })
  entityName!: string;

  @Field({ description: 'One sentence, e.g. "renamed resource prod/db to prod/orders-db".' })
  summary!: string;

  @Field(() => Int, {
    description:
      'How many binding changes this entry caused among the (tool, project) pairs examined: all of them when impactComplete is true, else a lower bound.',
  })
  impactCount!: number;

  @Field({
    description:
      "False when the binding impact's work cap (20,000 tool × project pairs a mutation) left some of the pairs this entry reached unexamined: impactCount then counts only the pairs examined. Entries written before the server recorded this say true.",
  })
  impactComplete!: boolean;

  @Field(() => String, {
    nullable: true,
    description:
      'For an access entry (GRANT, API_TOKEN): the namespace it concerns, or * (every namespace, or several); null for every other entry.',
  })
  namespace!: string | null;

  @Field(() => [BindingChange], {
    description:
      'The binding changes this entry caused, in the order of BindingImpact.changes (at most 1,000 are kept per mutation, so there may be fewer than impactCount).',
  })
  bindingChanges!: BindingChange[];
}

@ObjectType({
  description:
    'Change-log entries, a page at a time, oldest first (a Relay connection: first/after forward, last/before backward).',
})
export class RegistryChangeConnection extends Connection(RegistryChange, 'RegistryChange') {}
