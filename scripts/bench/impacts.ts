/**
 * Binding-impact previews at the benchmark's size: dry runs of the mutations
 * whose impact reaches the most (tool, project) pairs, each timed once, with
 * the number of changes found, whether the work cap was reached, and the SQL
 * statements sent. Dry runs store nothing, so the registry is unchanged.
 */
import type { RegistryModel } from './model';
import { BENCH_ADMIN_TOKEN, sqlStatements } from './processes';

/** One measured preview. */
export interface ImpactPreview {
  readonly name: string;
  readonly ms: number;
  readonly totalCount: number;
  readonly complete: boolean;
  readonly statements: number;
}

interface Case {
  readonly name: string;
  readonly query: string;
  readonly variables?: Record<string, unknown>;
  readonly field: string;
}

/** The previews to measure: each the widest of its kind in this registry. */
export function impactCases(model: RegistryModel): Case[] {
  const cases: Case[] = [];
  const { hierarchy } = model;
  // The type with a parent and the most sub-types: giving it one more parent (a root type it does not reach yet)
  // widens what every resource of it, and of its sub-types, fills. (Adding a parent never breaks a static binding.)
  const typed = model.types
    .filter((t) => t.parentIds.length > 0)
    .map((t) => ({ type: t, reach: hierarchy.descendantsOf(t.id).length }))
    .sort((a, b) => b.reach - a.reach)[0];
  const ancestors = typed ? new Set(hierarchy.ancestorsOf(typed.type.id).map((t) => t.id)) : new Set<string>();
  const extra = model.types.find((t) => t.parentIds.length === 0 && !ancestors.has(t.id));
  if (typed && extra) {
    const parents = [...typed.type.parentIds.map((id) => hierarchy.byId(id)!.name), extra.name];
    cases.push({
      name: `re-parent type ${typed.type.name} (${typed.reach} sub-types): add parent ${extra.name}`,
      field: 'updateResourceType',
      query: `mutation($i: UpdateResourceTypeInput!) { updateResourceType(input: $i, dryRun: true) { impact { totalCount complete } } }`,
      variables: { i: { ref: typed.type.name, parentTypes: parents } },
    });
  }
  // The most-linked resource: a forced delete unlinks it everywhere.
  const linkCount = new Map<string, number>();
  for (const project of model.projects) {
    for (const link of project.links) linkCount.set(link.resource.id, (linkCount.get(link.resource.id) ?? 0) + 1);
  }
  const staticallyBound = new Set(model.tools.flatMap((t) => t.slots.map((s) => s.staticResourceId)));
  const [busiest] = [...linkCount].filter(([id]) => !staticallyBound.has(id)).sort((a, b) => b[1] - a[1]);
  if (busiest) {
    const resource = model.resourceById.get(busiest[0])!;
    cases.push({
      name: `force-delete resource ${resource.name} (linked by ${busiest[1]} projects)`,
      field: 'deleteResource',
      query: `mutation { deleteResource(ref: ${JSON.stringify(resource.name)}, force: true, dryRun: true) { impact { totalCount complete } } }`,
    });
  }
  // The tool whose contextual slots accept the most types: a new required slot changes it in every project.
  const tool = model.tools
    .filter((t) => t.slots.some((s) => s.binding === 'CONTEXTUAL'))
    .map((t) => ({
      tool: t,
      reach: t.slots.reduce(
        (n, s) => n + (s.binding === 'CONTEXTUAL' ? hierarchy.descendantsOf(s.typeId).length : 0),
        0,
      ),
    }))
    .sort((a, b) => b.reach - a.reach)[0];
  if (tool) {
    const slots = tool.tool.slots.map((s) => ({
      name: s.name,
      resourceType: hierarchy.byId(s.typeId)!.name,
      access: s.access,
      binding: s.binding,
      staticResource: s.staticResourceId ? model.resourceById.get(s.staticResourceId)!.name : null,
      required: s.required,
    }));
    const root = model.types.find((t) => t.parentIds.length === 0)!;
    slots.push({
      name: 'bench_extra',
      resourceType: root.name,
      access: 'READ_ONLY',
      binding: 'CONTEXTUAL',
      staticResource: null,
      required: true,
    });
    cases.push({
      name: `update tool ${tool.tool.name}: add a required slot of a root type`,
      field: 'updateTool',
      query: `mutation($i: UpdateToolInput!) { updateTool(input: $i, dryRun: true) { impact { totalCount complete } } }`,
      variables: { i: { name: tool.tool.name, resourceSlots: slots } },
    });
  }
  return cases;
}

/** Runs each preview once (after one unmeasured run, so caches are warm) and measures it. */
export async function measureImpacts(
  model: RegistryModel,
  graphqlUrl: string,
  origin: string,
): Promise<ImpactPreview[]> {
  const previews: ImpactPreview[] = [];
  for (const c of impactCases(model)) {
    const send = async () => {
      const response = await fetch(graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
        body: JSON.stringify({ query: c.query, variables: c.variables }),
      });
      const body = (await response.json()) as {
        data?: Record<string, { impact: { totalCount: number; complete: boolean } }>;
        errors?: unknown[];
      };
      if (body.errors || !body.data)
        throw new Error(`impact preview '${c.name}' failed: ${JSON.stringify(body.errors)}`);
      return body.data[c.field].impact;
    };
    await send();
    const statementsBefore = await sqlStatements(origin);
    const started = performance.now();
    const impact = await send();
    const ms = performance.now() - started;
    const statements = (await sqlStatements(origin)) - statementsBefore;
    previews.push({ name: c.name, ms, totalCount: impact.totalCount, complete: impact.complete, statements });
  }
  return previews;
}
