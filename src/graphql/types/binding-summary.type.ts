import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { StatusCounts as CoreStatusCounts } from '../../core/binding-summary';
import { CellStatus } from './binding-matrix.type';
import { ItemPage } from './connection.type';
import { FailureReason } from './enums';
import { Project } from './project.type';
import { Tool } from './tool.type';

@ObjectType({ description: 'How many (tool, project) pairs have each cell status.', simpleResolvers: true })
export class StatusCounts {
  @Field(() => Int, { description: 'READY pairs: every slot is bound.' })
  ready!: number;

  @Field(() => Int, { description: 'DEFERRED pairs: bound apart from PARAMETER slots.' })
  deferred!: number;

  @Field(() => Int, { description: 'OPTIONAL_UNBOUND pairs: nothing fails, but an optional slot found nothing.' })
  optionalUnbound!: number;

  @Field(() => Int, { description: 'FAILED pairs: at least one slot cannot be bound.' })
  failed!: number;

  @Field(() => Int, { description: 'Every pair counted: the sum of the four.' })
  total!: number;
}

/** The GraphQL shape of the core's counts. */
export function toStatusCounts(counts: CoreStatusCounts): StatusCounts {
  return {
    ready: counts.READY,
    deferred: counts.DEFERRED,
    optionalUnbound: counts.OPTIONAL_UNBOUND,
    failed: counts.FAILED,
    total: counts.READY + counts.DEFERRED + counts.OPTIONAL_UNBOUND + counts.FAILED,
  };
}

@ObjectType({ description: 'One tool in one project, with both names.', simpleResolvers: true })
export class SummaryCell {
  @Field(() => ID, { description: "The cell's project." })
  projectId!: string;

  @Field({ description: "The project's name." })
  projectName!: string;

  @Field(() => ID, { description: "The cell's tool." })
  toolId!: string;

  @Field({ description: "The tool's name." })
  toolName!: string;

  @Field(() => CellStatus, { description: 'How the tool stands in the project: the worst of its slots.' })
  status!: CellStatus;

  @Field(() => Int, { description: 'How many slots fail.' })
  failedSlots!: number;

  @Field(() => [FailureReason], { description: 'The distinct reasons the failing slots fail.' })
  reasons!: FailureReason[];
}

@ObjectType({
  description:
    'A page of cells, failing first (FAILED with the most failing slots, then OPTIONAL_UNBOUND, DEFERRED, READY), then by name.',
})
export class SummaryCellPage extends ItemPage(SummaryCell) {}

@ObjectType({ description: 'A tool and how it stands in every project.' })
export class ToolSummary {
  @Field(() => Tool, { description: 'The tool.' })
  tool!: Tool;
}

@ObjectType({ description: 'A project and how every tool stands in it.' })
export class ProjectSummary {
  @Field(() => Project, { description: 'The project.' })
  project!: Project;
}

@ObjectType({ description: 'A tool with its counts.' })
export class ToolCounts {
  @Field(() => Tool, { description: 'The tool.' })
  tool!: Tool;

  @Field(() => StatusCounts, { description: 'Its cells in every project, counted.' })
  counts!: StatusCounts;
}

@ObjectType({ description: 'A project with its counts.' })
export class ProjectCounts {
  @Field(() => Project, { description: 'The project.' })
  project!: Project;

  @Field(() => StatusCounts, { description: 'Its cells for every tool, counted.' })
  counts!: StatusCounts;
}

@ObjectType({ description: 'A page of tools with their counts.' })
export class ToolCountsPage extends ItemPage(ToolCounts) {}

@ObjectType({ description: 'A page of projects with their counts.' })
export class ProjectCountsPage extends ItemPage(ProjectCounts) {}

@ObjectType({
  description:
    'How every tool stands in every project (each pair resolved without params, as in bindingMatrix), counted: in total, per tool and per project, with what needs attention first. The fields that count every pair (total, tools, projects) share one count per registry version; tool and project count one row or column.',
})
export class BindingSummary {}
