import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { checkPageSize, checkRef, checkSearchText, LIMITS } from '../../core/grammar';
import { Satisfies } from '../validation';

@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, {
    nullable: true,
    description: `The first this many items of the window, from 1 to ${LIMITS.pageSize}; ${LIMITS.defaultPageSize} when neither first nor last is given. Not with last.`,
  })
  @Satisfies(checkPageSize)
  first!: number | null;

  @Field(() => String, {
    nullable: true,
    description:
      "Only items after this cursor (a pageInfo.endCursor or an edge cursor of this connection): paging forward. Another connection's cursor, or a forged one, is BAD_USER_INPUT.",
  })
  after!: string | null;

  @Field(() => Int, {
    nullable: true,
    description: `The last this many items of the window, from 1 to ${LIMITS.pageSize}. Not with first.`,
  })
  @Satisfies(checkPageSize)
  last!: number | null;

  @Field(() => String, {
    nullable: true,
    description:
      "Only items before this cursor (a pageInfo.startCursor or an edge cursor of this connection): paging backward. Another connection's cursor, or a forged one, is BAD_USER_INPUT.",
  })
  before!: string | null;
}

@InputType({ description: 'Filters a listing by name.' })
export class NameFilter {
  @Field(() => String, { nullable: true, description: 'Only names containing this text, ignoring case.' })
  @Satisfies(checkSearchText)
  nameContains!: string | null;
}

@InputType({ description: 'Filters resource types.' })
export class ResourceTypeFilter extends NameFilter {}

@InputType({ description: 'Filters projects.' })
export class ProjectFilter extends NameFilter {
  @Field(() => String, {
    nullable: true,
    description: 'Only projects that link this resource (a ref); unknown is NOT_FOUND.',
  })
  @Satisfies(checkRef)
  linksResource!: string | null;
}

@InputType({ description: 'Filters tools.' })
export class ToolFilter extends NameFilter {
  @Field(() => String, {
    nullable: true,
    description:
      'Only tools with a slot that needs this resource type (a ref), sub-types included: "tools that need a database". Unknown is NOT_FOUND.',
  })
  @Satisfies(checkRef)
  slotType!: string | null;
}

@InputType({ description: 'Filters resources by name and type.' })
export class ResourceFilter extends NameFilter {
  @Field(() => String, { nullable: true, description: 'Only resources of this type (a ref); unknown is NOT_FOUND.' })
  @Satisfies(checkRef)
  type!: string | null;

  @Field(() => Boolean, {
    nullable: true,
    defaultValue: true,
    description: 'With `type`, also include resources of every sub-type, at any depth.',
  })
  includeSubtypes!: boolean | null;
}
