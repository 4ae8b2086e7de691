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

const bases = new Map<string, unknown>();

/**
 * The fields of a Relay connection of `node` objects: totalCount, edges
 * ({name}Edge: cursor and node) and pageInfo. A GraphQL type extends it:
 * {Name}Connection, or another name for the same shape (the binding
 * matrix's pages). Made once per node type, so the edge type is shared.
 */
export function Connection<TNode extends object>(node: ClassType<TNode>, name: string) {
  const known = bases.get(name);
  if (known) return known as ReturnType<typeof makeConnection<TNode>>;
  const base = makeConnection(node, name);
  bases.set(name, base);
  return base;
}

function makeConnection<TNode extends object>(node: ClassType<TNode>, name: string) {
  @ObjectType(`${name}Edge`, {
    description: `One item of a page, with the cursor that stands for its place in the order.`,
    simpleResolvers: true,
  })
  class Edge {
    @Field({ description: 'Opaque cursor of this edge: pass it as after or before.' })
    cursor!: string;

    @Field(() => node, { description: 'The item.' })
    node!: TNode;
  }

  @ObjectType({ simpleResolvers: true })
  abstract class ConnectionClass {
    @Field(() => Int, { description: 'How many items match the filter, on all pages.' })
    totalCount!: number;

    @Field(() => [Edge], { description: 'The items of this page, in order, each with its cursor.' })
    edges!: Edge[];

    @Field(() => PageInfo, {
      description: 'Where this page is: the cursors of its ends, and whether items precede or follow it.',
    })
    pageInfo!: PageInfo;
  }
  return ConnectionClass;
}

/**
 * A page of `node` objects that is not a Relay connection (its arguments are
 * elsewhere: the binding matrix pages its two axes with its own arguments):
 * the items, how many match in all, and the page's place (cursors for the
 * arguments that page it).
 */
export function ItemPage<TNode extends object>(node: ClassType<TNode>) {
  @ObjectType({ simpleResolvers: true })
  abstract class PageClass {
    @Field(() => Int, { description: 'How many items match the filter, on all pages.' })
    totalCount!: number;

    @Field(() => [node], { description: 'The items of this page, in order.' })
    nodes!: TNode[];

    @Field(() => PageInfo, {
      description: 'Where this page is: the cursors of its ends, and whether items precede or follow it.',
    })
    pageInfo!: PageInfo;
  }
  return PageClass;
}
