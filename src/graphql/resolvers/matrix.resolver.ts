import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Ctx, FieldResolver, Info, Int, Query, Resolver, Root } from 'type-graphql';
import { BadInputError, type FieldProblem } from '../../core/errors';
import { checkPageSize } from '../../core/grammar';
import { READ } from '../authorization';
import type { RequestContext } from '../context';
import { ProjectFilter, ToolFilter } from '../inputs/connection.args';
import { cursorsOf, MATRIX_DEFAULTS, toItemPage, windowOf } from '../pagination';
import { BindingMatrix, MatrixCell } from '../types/binding-matrix.type';
import { cellId } from '../object-ids';
import { namesOnly } from '../selection';

@Resolver(() => BindingMatrix)
export class MatrixResolver {
  @Authorized(READ)
  @Query(() => BindingMatrix, {
    description:
      'Which tools can run in which projects: a page of projects (the rows) and a page of tools (the columns), both ordered by name and filtered like projects and tools, and a cell for every pair, resolved without params. A fixed number of SQL statements whatever the page sizes.',
  })
  async bindingMatrix(
    @Arg('projects', () => ProjectFilter, { nullable: true, description: 'Which projects.' })
    projects: ProjectFilter | null,
    @Arg('tools', () => ToolFilter, { nullable: true, description: 'Which tools.' }) tools: ToolFilter | null,
    @Arg('projectsFirst', () => Int, {
      nullable: true,
      description: `The first this many projects, from 1 to 100; ${MATRIX_DEFAULTS.projects} when neither projectsFirst nor projectsLast is given.`,
    })
    projectsFirst: number | null,
    @Arg('projectsAfter', () => String, {
      nullable: true,
      description: 'Only projects after this cursor (one of a ProjectPage or of projects).',
    })
    projectsAfter: string | null,
    @Arg('projectsLast', () => Int, {
      nullable: true,
      description: 'The last this many projects, from 1 to 100 (with projectsBefore, to page backward).',
    })
    projectsLast: number | null,
    @Arg('projectsBefore', () => String, {
      nullable: true,
      description: 'Only projects before this cursor (one of a ProjectPage or of projects).',
    })
    projectsBefore: string | null,
    @Arg('toolsFirst', () => Int, {
      nullable: true,
      description: `The first this many tools, from 1 to 100; ${MATRIX_DEFAULTS.tools} when neither toolsFirst nor toolsLast is given.`,
    })
    toolsFirst: number | null,
    @Arg('toolsAfter', () => String, {
      nullable: true,
      description: 'Only tools after this cursor (one of a ToolPage or of tools).',
    })
    toolsAfter: string | null,
    @Arg('toolsLast', () => Int, {
      nullable: true,
      description: 'The last this many tools, from 1 to 100 (with toolsBefore, to page backward).',
    })
    toolsLast: number | null,
    @Arg('toolsBefore', () => String, {
      nullable: true,
      description: 'Only tools before this cursor (one of a ToolPage or of tools).',
    })
    toolsBefore: string | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return matrixPage(
      {
        projects,
        tools,
        projectsFirst,
        projectsAfter,
        projectsLast,
        projectsBefore,
        toolsFirst,
        toolsAfter,
        toolsLast,
        toolsBefore,
      },
      ctx,
      info,
    );
  }
}

@Resolver(() => MatrixCell)
export class MatrixCellResolver {
  @FieldResolver()
  id(@Root() cell: { projectId: string; toolId: string }): string {
    return cellId(cell.projectId, cell.toolId);
  }
}

/** The matrix's arguments, as bindingMatrix takes them. */
interface MatrixArgs {
  readonly projects: ProjectFilter | null;
  readonly tools: ToolFilter | null;
  readonly projectsFirst: number | null;
  readonly projectsAfter: string | null;
  readonly projectsLast: number | null;
  readonly projectsBefore: string | null;
  readonly toolsFirst: number | null;
  readonly toolsAfter: string | null;
  readonly toolsLast: number | null;
  readonly toolsBefore: string | null;
}

/** The page sizes checked, the two windows read, then the matrix of their pages. */
async function matrixPage(args: MatrixArgs, ctx: RequestContext, info: GraphQLResolveInfo) {
  const { projects, tools, projectsFirst, projectsAfter, projectsLast, projectsBefore } = args;
  const { toolsFirst, toolsAfter, toolsLast, toolsBefore } = args;
  const problems: FieldProblem[] = [];
  for (const [field, size] of [
    ['projectsFirst', projectsFirst],
    ['projectsLast', projectsLast],
    ['toolsFirst', toolsFirst],
    ['toolsLast', toolsLast],
  ] as const) {
    const problem = size == null ? null : checkPageSize(size);
    if (problem) problems.push({ field, message: `${field} ${problem}` });
  }
  if (problems.length > 0) throw new BadInputError(problems);
  const names = (prefix: string) => ({
    first: `${prefix}First`,
    last: `${prefix}Last`,
    after: `${prefix}After`,
    before: `${prefix}Before`,
  });
  const projectWindow = windowOf(
    { first: projectsFirst, after: projectsAfter, last: projectsLast, before: projectsBefore },
    cursorsOf('projects'),
    MATRIX_DEFAULTS.projects,
    names('projects'),
  );
  const toolWindow = windowOf(
    { first: toolsFirst, after: toolsAfter, last: toolsLast, before: toolsBefore },
    cursorsOf('tools'),
    MATRIX_DEFAULTS.tools,
    names('tools'),
  );
  const matrix = await ctx.services.matrix.matrix(
    {
      projects: { ...projectWindow, nameContains: projects?.nameContains || null },
      linksResource: projects?.linksResource ?? null,
      tools: { ...toolWindow, nameContains: tools?.nameContains || null },
      slotType: tools?.slotType ?? null,
      // The axes' records only when their nodes ask for more than ids and names (the cells need neither).
      projectRecords: !namesOnly(info, 'projects', 'nodes'),
      toolRecords: !namesOnly(info, 'tools', 'nodes'),
    },
    ctx.session,
    () => ctx.fairShare?.pauseIfDue(),
  );
  return {
    projects: toItemPage('projects', matrix.projects),
    tools: toItemPage('tools', matrix.tools),
    cells: matrix.cells,
  };
}
