import { Arg, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import { BadInputError, type FieldProblem } from '../../core/errors';
import { checkPageSize } from '../../core/grammar';
import { READ } from '../authorization';
import type { RequestContext } from '../context';
import { ProjectFilter, ToolFilter } from '../inputs/connection.args';
import { pageRequest, toConnection } from '../pagination';
import { MATRIX_DEFAULTS } from '../query-limits';
import { BindingMatrix } from '../types/binding-matrix.type';

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
      defaultValue: MATRIX_DEFAULTS.projects,
      description: 'How many projects, from 1 to 100.',
    })
    projectsFirst: number | null,
    @Arg('projectsAfter', () => String, { nullable: true, description: 'Projects after this cursor.' })
    projectsAfter: string | null,
    @Arg('toolsFirst', () => Int, {
      nullable: true,
      defaultValue: MATRIX_DEFAULTS.tools,
      description: 'How many tools, from 1 to 100.',
    })
    toolsFirst: number | null,
    @Arg('toolsAfter', () => String, { nullable: true, description: 'Tools after this cursor.' })
    toolsAfter: string | null,
    @Ctx() ctx: RequestContext,
  ) {
    const problems: FieldProblem[] = [];
    for (const [field, size] of [
      ['projectsFirst', projectsFirst],
      ['toolsFirst', toolsFirst],
    ] as const) {
      const problem = size === null ? null : checkPageSize(size);
      if (problem) problems.push({ field, message: `${field} ${problem}` });
    }
    if (problems.length > 0) throw new BadInputError(problems);
    const matrix = await ctx.services.matrix.matrix(
      {
        projects: pageRequest({ first: projectsFirst ?? MATRIX_DEFAULTS.projects, after: projectsAfter }, projects),
        linksResource: projects?.linksResource ?? null,
        tools: pageRequest({ first: toolsFirst ?? MATRIX_DEFAULTS.tools, after: toolsAfter }, tools),
        slotType: tools?.slotType ?? null,
      },
      ctx.session,
    );
    return { projects: toConnection(matrix.projects), tools: toConnection(matrix.tools), cells: matrix.cells };
  }
}
