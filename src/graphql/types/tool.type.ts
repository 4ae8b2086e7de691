import { DateTime } from './date-time.scalar';
import { Field, ID, ObjectType } from 'type-graphql';
import { Connection, ItemPage } from './connection.type';
import { Node } from './node.type';
import { Access, BindingMode } from './enums';

@ObjectType({
  implements: Node,
  description: 'A tool and the resource slots it declares.',
  simpleResolvers: true,
})
export class Tool implements Node {
  @Field(() => ID, { description: 'Unique across every type; node(id) finds it again.' })
  id!: string;

  @Field({ description: 'Unique, ignoring case; "/"-separated segments, e.g. demo/mixed.' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Free text; null when none was given.' })
  description!: string | null;

  @Field(() => DateTime, { description: 'When it was registered.' })
  createdAt!: string;

  @Field(() => DateTime, { description: 'When it last changed.' })
  updatedAt!: string;
}

@ObjectType({ description: 'A resource a tool needs: its type, access and how it is bound.', simpleResolvers: true })
export class ResourceSlot {
  @Field(() => ID, {
    description:
      'Stable while the tool keeps a slot of this name (updateTool keeps it when the slot keeps its name), and unique across every type.',
  })
  id!: string;

  @Field({ description: 'Unique within the tool.' })
  name!: string;

  @Field(() => Access, { description: 'How the tool may use the resource bound to this slot.' })
  access!: Access;

  @Field(() => BindingMode, {
    name: 'binding',
    description: 'How the slot finds its resource: CONTEXTUAL, STATIC or PARAMETER.',
  })
  binding!: BindingMode;

  @Field({ description: 'False when the tool can run without it: then finding nothing is not a failure.' })
  required!: boolean;
}

@ObjectType({
  description:
    'Tools, a page at a time, ordered by name (a Relay connection: first/after forward, last/before backward).',
})
export class ToolConnection extends Connection(Tool, 'Tool') {}

@ObjectType({
  description:
    "The page of tools a binding matrix shows (its columns): page it with bindingMatrix's toolsFirst/toolsAfter or toolsLast/toolsBefore.",
})
export class ToolPage extends ItemPage(Tool) {}

@ObjectType({ description: 'A static problem with a tool definition.', simpleResolvers: true })
export class ToolProblem {
  @Field(() => String, { nullable: true, description: 'The slot name, when the problem is in a slot.' })
  slot!: string | null;

  @Field({ description: 'The slot field at fault, e.g. staticResource.' })
  field!: string;

  @Field({ description: 'What is wrong, and how to fix it.' })
  message!: string;
}
