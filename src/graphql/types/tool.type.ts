import { DateTime } from './date-time.scalar';
import { Field, ID, ObjectType } from 'type-graphql';
import { Connection } from './connection.type';
import { Access, BindingMode } from './enums';

@ObjectType({ description: 'A tool and the resource slots it declares.', simpleResolvers: true })
export class Tool {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => DateTime, { description: 'When it was registered.' })
  createdAt!: string;

  @Field(() => DateTime, { description: 'When it last changed.' })
  updatedAt!: string;
}

@ObjectType({ description: 'A resource a tool needs: its type, access and how it is bound.', simpleResolvers: true })
export class ResourceSlot {
  @Field({ description: 'Unique within the tool.' })
  name!: string;

  @Field(() => Access)
  access!: Access;

  @Field(() => BindingMode, { name: 'binding' })
  binding!: BindingMode;

  @Field()
  required!: boolean;
}

@ObjectType()
export class ToolConnection extends Connection(Tool, 'Tool') {}

@ObjectType({ description: 'A static problem with a tool definition.', simpleResolvers: true })
export class ToolProblem {
  @Field(() => String, { nullable: true, description: 'The slot name, when the problem is in a slot.' })
  slot!: string | null;

  @Field({ description: 'The slot field at fault, e.g. staticResource.' })
  field!: string;

  @Field()
  message!: string;
}
