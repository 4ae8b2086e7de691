import { Field, Int, ObjectType, type ClassType } from 'type-graphql';

@ObjectType({ description: 'Relay page information.', simpleResolvers: true })
export class PageInfo {
  @Field({
    description:
      'True when more items follow this page: beyond it in the window for a page asked with first, after `before` for one asked with last.',
  })
  hasNextPage!: boolean;

  @Field({
    description:
      'True when more items precede this page: before it in the window for a page asked with last, up to `after` for one asked with first.',
  })
  hasPreviousPage!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'The cursor of the first edge, to pass as `before` for the previous page.',
  })
  startCursor!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'The cursor of the last edge, to pass as `after` for the next page.',
  })
  endCursor!: string | null;
}

/** A Relay connection of `node` objects, ordered by name: {Name}Connection with {Name}Edge. */
export function Connection<TNode extends object>(node: ClassType<TNode>, name: string) {
  @ObjectType(`${name}Edge`, { simpleResolvers: true })
  class Edge {
    @Field({ description: 'Opaque cursor of this edge.' })
    cursor!: string;

    @Field(() => node)
    node!: TNode;
  }

  @ObjectType({ simpleResolvers: true })
  abstract class ConnectionClass {
    @Field(() => Int, { description: 'How many items match the filter, on all pages.' })
    totalCount!: number;

    @Field(() => [Edge])
    edges!: Edge[];

    @Field(() => PageInfo)
    pageInfo!: PageInfo;
  }
  return ConnectionClass;
}
