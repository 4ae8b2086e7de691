import { ArgsType, Field, Int, registerEnumType } from 'type-graphql';
import { checkPageSize, checkSearchText, LIMITS } from '../../core/grammar';
import { Satisfies } from '../validation';

/** GraphQL enum SummaryOrder: how a summary's tools or projects are ordered. */
export const SummaryOrder = { FAILING_FIRST: 'FAILING_FIRST', NAME: 'NAME' } as const;
export type SummaryOrder = keyof typeof SummaryOrder;

registerEnumType(SummaryOrder, {
  name: 'SummaryOrder',
  description: 'How the tools or projects of a summary are ordered.',
  valuesConfig: {
    FAILING_FIRST: {
      description: 'The most failed pairs first, then the most optional-unbound, then by name: what needs attention.',
    },
    NAME: { description: 'By name.' },
  } satisfies Record<SummaryOrder, { description: string }>,
});

/** A forward page of a list a summary holds (offset cursors: the order is not by name). */
@ArgsType()
export class SummaryPageArgs {
  @Field(() => Int, {
    nullable: true,
    description: `The first this many items, from 1 to ${LIMITS.pageSize}; ${LIMITS.defaultPageSize} when absent.`,
  })
  @Satisfies(checkPageSize)
  first!: number | null;

  @Field(() => String, { nullable: true, description: 'Only items after this cursor (a pageInfo.endCursor).' })
  after!: string | null;
}

/** A page of a summary's tools or projects: the page, the order, and a name filter. */
@ArgsType()
export class SummaryListArgs extends SummaryPageArgs {
  @Field(() => SummaryOrder, { defaultValue: SummaryOrder.FAILING_FIRST, description: 'The order.' })
  order!: SummaryOrder;

  @Field(() => String, { nullable: true, description: 'Only names containing this text, ignoring case.' })
  @Satisfies(checkSearchText)
  nameContains!: string | null;
}
