import { Arg, Args, Authorized, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { RegistrySummary, SummaryItem } from '../../application/binding-summary.service';
import { LIMITS } from '../../core/grammar';
import type { ProjectRecord, ToolRecord } from '../../persistence/records';
import { READ } from '../authorization';
import type { RequestContext } from '../context';
import { pauseIfDue } from '../fair-share';
import { SummaryListArgs, SummaryPageArgs } from '../inputs/summary.args';
import { offsetPage } from '../pagination';
import {
  BindingSummary,
  ProjectSummary,
  ProjectSummaryPage,
  SummaryCellPage,
  ToolSummary,
  ToolSummaryPage,
  toStatusCounts,
} from '../types/binding-summary.type';

/** What bindingSummary answers: its plain fields, and the counts its lists are paged from. */
interface SummaryRoot extends BindingSummary {
  readonly summary: RegistrySummary;
}

interface ToolSummaryRoot {
  readonly tool: ToolRecord;
  readonly counts: ToolSummary['counts'];
}

interface ProjectSummaryRoot {
  readonly project: ProjectRecord;
  readonly counts: ProjectSummary['counts'];
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
  async bindingSummary(@Ctx() ctx: RequestContext): Promise<SummaryRoot> {
    const summary = await ctx.services.summary.summary(ctx.session, () => pauseIfDue(ctx.fairShare));
    return {
      registryVersion: summary.version,
      total: toStatusCounts(summary.total),
      toolCount: summary.tools.length,
      projectCount: summary.projects.length,
      summary,
    };
  }

  @FieldResolver(() => ToolSummaryPage, { description: 'Tools with their counts, failing first unless asked by name.' })
  async tools(@Root() root: SummaryRoot, @Args() args: SummaryListArgs, @Ctx() ctx: RequestContext) {
    const page = offsetPage(
      listOf(root.summary.tools, root.summary.toolsFailingFirst, args),
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

  @FieldResolver(() => ProjectSummaryPage, {
    description: 'Projects with their counts, failing first unless asked by name.',
  })
  async projects(@Root() root: SummaryRoot, @Args() args: SummaryListArgs, @Ctx() ctx: RequestContext) {
    const page = offsetPage(
      listOf(root.summary.projects, root.summary.projectsFailingFirst, args),
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
    description: 'One tool (a ref) with its counts; null when unknown.',
  })
  async tool(
    @Root() root: SummaryRoot,
    @Arg('ref', { description: 'The tool (a ref: id or name).' }) ref: string,
    @Ctx() ctx: RequestContext,
  ): Promise<ToolSummaryRoot | null> {
    const tool = await ctx.services.tools.find(ref, ctx.session);
    const item = tool && root.summary.tools.find((t) => t.id === tool.id);
    return tool && item ? { tool, counts: toStatusCounts(item.counts) } : null;
  }

  @FieldResolver(() => ProjectSummary, {
    nullable: true,
    description: 'One project (a ref) with its counts; null when unknown.',
  })
  async project(
    @Root() root: SummaryRoot,
    @Arg('ref', { description: 'The project (a ref: id or name).' }) ref: string,
    @Ctx() ctx: RequestContext,
  ): Promise<ProjectSummaryRoot | null> {
    const project = await ctx.services.projects.find(ref, ctx.session);
    const item = project && root.summary.projects.find((p) => p.id === project.id);
    return project && item ? { project, counts: toStatusCounts(item.counts) } : null;
  }
}

@Resolver(() => ToolSummary)
export class ToolSummaryResolver {
  @FieldResolver(() => SummaryCellPage, {
    description: 'Its cell in every project, failing first, then by project name.',
  })
  async cells(@Root() root: ToolSummaryRoot, @Args() args: SummaryPageArgs, @Ctx() ctx: RequestContext) {
    const cells = await ctx.services.summary.cellsOfTool(root.tool, ctx.session, () => pauseIfDue(ctx.fairShare));
    return offsetPage(cells, args.first ?? LIMITS.defaultPageSize, args.after);
  }
}

@Resolver(() => ProjectSummary)
export class ProjectSummaryResolver {
  @FieldResolver(() => SummaryCellPage, {
    description: "Every tool's cell in it, failing first, then by tool name.",
  })
  async cells(@Root() root: ProjectSummaryRoot, @Args() args: SummaryPageArgs, @Ctx() ctx: RequestContext) {
    const cells = await ctx.services.summary.cellsOfProject(root.project, ctx.session, () => pauseIfDue(ctx.fairShare));
    return offsetPage(cells, args.first ?? LIMITS.defaultPageSize, args.after);
  }
}
