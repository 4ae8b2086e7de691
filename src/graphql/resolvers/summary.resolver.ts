import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { NamedCell, RegistrySummary, SummaryItem } from '../../application/binding-summary.service';
import { countStatuses } from '../../core/binding-summary';
import { LIMITS } from '../../core/grammar';
import type { ProjectRecord, ToolRecord } from '../../persistence/records';
import { READ } from '../authorization';
import type { RequestContext } from '../context';
import { SummaryListArgs, SummaryPageArgs } from '../inputs/summary.args';
import { offsetPage } from '../pagination';
import {
  BindingSummary,
  ProjectCountsPage,
  ProjectSummary,
  StatusCounts,
  SummaryCellPage,
  ToolCountsPage,
  ToolSummary,
  toStatusCounts,
} from '../types/binding-summary.type';

/** What bindingSummary answers: the count of every pair, made (or taken from the kept one) when a field needs it. */
interface SummaryRoot {
  readonly summary: () => Promise<RegistrySummary>;
}

/** One tool's or project's row or column of the matrix, resolved when a field needs it (once per request). */
interface ToolSummaryRoot {
  readonly tool: ToolRecord;
  readonly cells: () => Promise<NamedCell[]>;
}

interface ProjectSummaryRoot {
  readonly project: ProjectRecord;
  readonly cells: () => Promise<NamedCell[]>;
}

/** Once: the first call's promise, for every call. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | null = null;
  return () => (made ??= make());
}

/** The items of a summary list, in the order asked, those whose names contain the text (ignoring case). */
function listOf(
  byName: readonly SummaryItem[],
  failingFirst: readonly SummaryItem[],
  args: SummaryListArgs,
): readonly SummaryItem[] {
  const list = args.order === 'NAME' ? byName : failingFirst;
  const text = args.nameContains?.toLowerCase();
  return text ? list.filter((item) => item.name.toLowerCase().includes(text)) : list;
}

@Resolver(() => BindingSummary)
export class SummaryResolver {
  @Authorized(READ)
  @Query(() => BindingSummary, {
    description:
      'How every tool stands in every project, counted: ready, deferred, optional-unbound and failed pairs, in total, per tool and per project, failing first. Counted once per registry version, in a fixed number of SQL statements whatever the size of the registry.',
  })
  bindingSummary(@Ctx() ctx: RequestContext): SummaryRoot {
    return { summary: once(() => ctx.services.summary.summary(ctx.session, () => ctx.fairShare?.pauseIfDue())) };
  }

  @FieldResolver(() => Int, { description: 'The registry version the counts are of.' })
  registryVersion(@Ctx() ctx: RequestContext): Promise<number> {
    return ctx.session.currentVersion();
  }

  @FieldResolver(() => StatusCounts, { description: 'Every (tool, project) pair, counted.' })
  async total(@Root() root: SummaryRoot): Promise<StatusCounts> {
    return toStatusCounts((await root.summary()).total);
  }

  @FieldResolver(() => Int, { description: 'How many tools there are.' })
  toolCount(@Ctx() ctx: RequestContext): Promise<number> {
    return ctx.services.summary.count('tool', ctx.session);
  }

  @FieldResolver(() => Int, { description: 'How many projects there are.' })
  projectCount(@Ctx() ctx: RequestContext): Promise<number> {
    return ctx.services.summary.count('project', ctx.session);
  }

  @FieldResolver(() => ToolCountsPage, { description: 'Tools with their counts, failing first unless asked by name.' })
  async tools(@Root() root: SummaryRoot, @Args() args: SummaryListArgs, @Ctx() ctx: RequestContext) {
    const summary = await root.summary();
    const page = offsetPage(
      listOf(summary.tools, summary.toolsFailingFirst, args),
      args.first ?? LIMITS.defaultPageSize,
      args.after,
    );
    const records = await ctx.session.toolById.loadMany(page.nodes.map((item) => item.id));
    return {
      ...page,
      nodes: page.nodes.flatMap((item, i) => {
        const tool = records[i];
        return tool && !(tool instanceof Error) ? [{ tool, counts: toStatusCounts(item.counts) }] : [];
      }),
    };
  }

  @FieldResolver(() => ProjectCountsPage, {
    description: 'Projects with their counts, failing first unless asked by name.',
  })
  async projects(@Root() root: SummaryRoot, @Args() args: SummaryListArgs, @Ctx() ctx: RequestContext) {
    const summary = await root.summary();
    const page = offsetPage(
      listOf(summary.projects, summary.projectsFailingFirst, args),
      args.first ?? LIMITS.defaultPageSize,
      args.after,
    );
    const records = await ctx.session.projectById.loadMany(page.nodes.map((item) => item.id));
    return {
      ...page,
      nodes: page.nodes.flatMap((item, i) => {
        const project = records[i];
        return project && !(project instanceof Error) ? [{ project, counts: toStatusCounts(item.counts) }] : [];
      }),
    };
  }

  @FieldResolver(() => ToolSummary, {
    nullable: true,
    description: 'One tool (a ref), resolved in every project; null when unknown.',
  })
  async tool(
    @Arg('ref', { description: 'The tool (a ref: id or name).' }) ref: string,
    @Ctx() ctx: RequestContext,
  ): Promise<ToolSummaryRoot | null> {
    const tool = await ctx.services.tools.find(ref, ctx.session);
    if (!tool) return null;
    return {
      tool,
      cells: once(() => ctx.services.summary.cellsOfTool(tool, ctx.session, () => ctx.fairShare?.pauseIfDue())),
    };
  }

  @FieldResolver(() => ProjectSummary, {
    nullable: true,
    description: 'One project (a ref), with every tool resolved in it; null when unknown.',
  })
  async project(
    @Arg('ref', { description: 'The project (a ref: id or name).' }) ref: string,
    @Ctx() ctx: RequestContext,
  ): Promise<ProjectSummaryRoot | null> {
    const project = await ctx.services.projects.find(ref, ctx.session);
    if (!project) return null;
    return {
      project,
      cells: once(() => ctx.services.summary.cellsOfProject(project, ctx.session, () => ctx.fairShare?.pauseIfDue())),
    };
  }
}

@Resolver(() => ToolSummary)
export class ToolSummaryResolver {
  @FieldResolver(() => StatusCounts, { description: 'Its cells in every project, counted.' })
  async counts(@Root() root: ToolSummaryRoot): Promise<StatusCounts> {
    return toStatusCounts(countStatuses(await root.cells()));
  }

  @FieldResolver(() => SummaryCellPage, {
    description: 'Its cell in every project, failing first, then by project name.',
  })
  async cells(@Root() root: ToolSummaryRoot, @Args() args: SummaryPageArgs) {
    return offsetPage(await root.cells(), args.first ?? LIMITS.defaultPageSize, args.after);
  }
}

@Resolver(() => ProjectSummary)
export class ProjectSummaryResolver {
  @FieldResolver(() => StatusCounts, { description: 'Its cells for every tool, counted.' })
  async counts(@Root() root: ProjectSummaryRoot): Promise<StatusCounts> {
    return toStatusCounts(countStatuses(await root.cells()));
  }

  @FieldResolver(() => SummaryCellPage, {
    description: "Every tool's cell in it, failing first, then by tool name.",
  })
  async cells(@Root() root: ProjectSummaryRoot, @Args() args: SummaryPageArgs) {
    return offsetPage(await root.cells(), args.first ?? LIMITS.defaultPageSize, args.after);
  }
}
