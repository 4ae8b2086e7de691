import { IsOptional, ValidateNested } from 'class-validator';
import { Field, InputType } from 'type-graphql';
import { checkBatchKey, checkListSize, LIMITS } from '../../core/grammar';
import { Satisfies } from '../validation';
import { CreateProjectInput } from './create-project.input';
import { LinkResourceInput } from './link-resource.input';
import { RegisterResourceTypeInput } from './register-resource-type.input';
import { RegisterResourceInput } from './register-resource.input';
import { RegisterToolInput } from './register-tool.input';

const checkEntryCount = (entries: unknown[]) => checkListSize(entries.length, LIMITS.batchEntries);

@InputType({
  description:
    'One registration of a batch: exactly one field is set, and it is the input of the mutation that registers that kind of thing.',
})
export class BatchEntryInput {
  @Field(() => RegisterResourceTypeInput, { nullable: true, description: 'As registerResourceType.' })
  @IsOptional()
  @ValidateNested()
  resourceType!: RegisterResourceTypeInput | null;

  @Field(() => RegisterResourceInput, { nullable: true, description: 'As registerResource.' })
  @IsOptional()
  @ValidateNested()
  resource!: RegisterResourceInput | null;

  @Field(() => CreateProjectInput, { nullable: true, description: 'As createProject.' })
  @IsOptional()
  @ValidateNested()
  project!: CreateProjectInput | null;

  @Field(() => LinkResourceInput, { nullable: true, description: 'As linkResource.' })
  @IsOptional()
  @ValidateNested()
  link!: LinkResourceInput | null;

  @Field(() => RegisterToolInput, { nullable: true, description: 'As registerTool.' })
  @IsOptional()
  @ValidateNested()
  tool!: RegisterToolInput | null;
}

@InputType({ description: 'Registrations to make in one transaction, in order: all of them or none.' })
export class RegisterBatchInput {
  @Field(() => [BatchEntryInput], {
    description: `In order (an entry may use what an earlier one registers); at most ${LIMITS.batchEntries}.`,
  })
  @Satisfies(checkEntryCount)
  @ValidateNested()
  entries!: BatchEntryInput[];

  @Field(() => String, {
    nullable: true,
    description:
      'Names this batch (1 to 64 letters, digits, ".", "_", ":" or "-"; a new one for each batch, a UUID say): once it commits, it is the last keyed batch, which a batch sent with `after` can follow.',
  })
  @IsOptional()
  @Satisfies(checkBatchKey)
  key?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Registers this batch only if the last write the registry committed is the batch of this `key`: otherwise PRECONDITION_FAILED (that batch failed, or another write came between), and nothing is stored. So a client can send a batch before the one it follows has answered, and it is never applied after that one failed.',
  })
  @IsOptional()
  @Satisfies(checkBatchKey)
  after?: string | null;
}
