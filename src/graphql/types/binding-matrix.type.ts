import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { CellStatus as CoreCellStatus } from '../../core/binding-matrix';
import { FailureReason } from './enums';
import { ProjectPage } from './project.type';
import { ToolPage } from './tool.type';

/** GraphQL enum CellStatus, tied to the core's cell statuses. */
export const CellStatus = {
  READY: 'READY',
  DEFERRED: 'DEFERRED',
  OPTIONAL_UNBOUND: 'OPTIONAL_UNBOUND',
  FAILED: 'FAILED',
} as const satisfies { readonly [K in CoreCellStatus]: K };
export type CellStatus = CoreCellStatus;

registerEnumType(CellStatus, {
  name: 'CellStatus',
  description: 'How a tool stands in a project, resolved without params.',
  valuesConfig: {
    READY: { description: 'Every slot is bound.' },
    DEFERRED: { description: 'Bound apart from PARAMETER slots, which wait for their params.' },
    OPTIONAL_UNBOUND: { description: 'Nothing fails, but an optional slot found nothing.' },
    FAILED: { description: 'At least one slot cannot be bound; see reasons, and explainBindings for the fix.' },
  } satisfies Record<CellStatus, { description: string }>,
});

@ObjectType({ description: 'One tool in one project.', simpleResolvers: true })
export class MatrixCell {
  @Field(() => ID, { description: 'Stands for the tool in the project (a cell resolves without params).' })
  id!: string;

  @Field(() => ID, { description: "The cell's project (a row)." })
  projectId!: string;

  @Field(() => ID, { description: "The cell's tool (a column)." })
  toolId!: string;

  @Field(() => CellStatus, { description: 'How the tool stands in the project: the worst of its slots.' })
  status!: CellStatus;

  @Field(() => Int, { description: 'How many slots fail.' })
  failedSlots!: number;

  @Field(() => [FailureReason], { description: 'The distinct reasons the failing slots fail.' })
  reasons!: FailureReason[];
}

@ObjectType({
  description: 'Which tools can run in which projects: a page of projects, a page of tools, and a cell for every pair.',
  simpleResolvers: true,
})
export class BindingMatrix {
  @Field(() => ProjectPage, { description: 'The projects shown (the rows).' })
  projects!: ProjectPage;

  @Field(() => ToolPage, { description: 'The tools shown (the columns).' })
  tools!: ToolPage;

  @Field(() => [MatrixCell], { description: 'One cell per (project, tool) of the two pages, row by row.' })
  cells!: MatrixCell[];
}
