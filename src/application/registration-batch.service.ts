import { BadInputError, DomainError } from '../core/errors';
import { checkListSize, LIMITS } from '../core/grammar';
import type { ChangeKind } from '../core/registry-edit';
import type { ProjectService, CreateProjectCommand, LinkResourceCommand } from './project.service';
import {
  RUN_STEP_ENTRIES,
  type RegistryWrites,
  type ChangeOutcome,
  type ChangeRequest,
  type ChangeStep,
  type BatchOrder,
} from './registry-writes';
import type { RegisterResourceTypeCommand, ResourceTypeService } from './resource-type.service';
import type { RegisterResourceCommand, ResourceService } from './resource.service';
import type { RegisterToolCommand, ToolService } from './tool.service';

/** One entry of a batch: exactly one of these is set. */
export interface BatchEntryCommand {
  readonly resourceType?: RegisterResourceTypeCommand | null;
  readonly resource?: RegisterResourceCommand | null;
  readonly project?: CreateProjectCommand | null;
  readonly link?: LinkResourceCommand | null;
  readonly tool?: RegisterToolCommand | null;
}

/** The fields of an entry, in the order of BatchEntryCommand. */
const ENTRY_FIELDS = ['resourceType', 'resource', 'project', 'link', 'tool'] as const;

/** What one entry registered: its kind, and its id and name (a link: its project's). */
export interface RegisteredEntry {
  readonly kind: ChangeKind;
  readonly id: string;
  readonly name: string;
}

/**
 * registerBatch: many registrations in one transaction, all or none. Each
 * entry is the registration its own mutation makes (registerResourceType,
 * registerResource, createProject, linkResource or registerTool): the same
 * checks, the same access rule, and one change-log entry under that
 * mutation's name; an entry sees every entry before it. The first entry
 * that fails rolls the batch back, and its error carries `entry`, its
 * index. It exists for loading many entries at once (`tool-registry
 * register`), where one request per entry costs more than the entry.
 */
export class RegistrationBatchService {
  constructor(
    private readonly writes: RegistryWrites,
    private readonly services: {
      readonly resourceTypes: ResourceTypeService;
      readonly resources: ResourceService;
      readonly projects: ProjectService;
      readonly tools: ToolService;
    },
  ) {}

  async register(
    entries: readonly BatchEntryCommand[],
    request: ChangeRequest,
    order: BatchOrder = {},
  ): Promise<ChangeOutcome<RegisteredEntry[]>> {
    const sizeProblem = checkListSize(entries.length, LIMITS.batchEntries);
    if (sizeProblem) throw new BadInputError([{ field: 'input.entries', message: `input.entries ${sizeProblem}` }]);
    const singles = entries.map((entry, index) => {
      try {
        return this.stepOf(entry, index);
      } catch (error) {
        throw error instanceof DomainError ? error.atEntry(index) : error;
      }
    });
    // A run of consecutive resources, projects, links or tools is one run step: a statement
    // or two for each hundred of them, where a step each costs one to four.
    const steps: ChangeStep<RegisteredEntry[]>[] = [];
    for (let index = 0; index < entries.length;) {
      const length = runLength(entries, index);
      steps.push(length > 1 ? this.runStep(entries.slice(index, index + length)) : alone(singles[index]));
      index += length;
    }
    const outcome = await this.writes.changeAll(request, steps, order);
    return { ...outcome, result: outcome.result.flat() };
  }

  /** The run step of entries of one kind (runLength's). */
  private runStep(run: readonly BatchEntryCommand[]): ChangeStep<RegisteredEntry[]> {
    const { resources, projects, tools } = this.services;
    if (run[0].resource) return toldAll('RESOURCE', resources.registerRunStep(run.map((entry) => entry.resource!)));
    if (run[0].project) return toldAll('PROJECT', projects.createRunStep(run.map((entry) => entry.project!)));
    if (run[0].tool) return toldAll('TOOL', tools.registerRunStep(run.map((entry) => entry.tool!)));
    return toldAll('LINK', projects.linkRunStep(run.map((entry) => entry.link!)));
  }

  private stepOf(entry: BatchEntryCommand, index: number): ChangeStep<RegisteredEntry> {
    const set = ENTRY_FIELDS.filter((field) => entry[field] != null);
    if (set.length !== 1) {
      throw new BadInputError([
        {
          field: `input.entries[${index}]`,
          message: `input.entries[${index}] must set exactly one of ${ENTRY_FIELDS.join(', ')}${set.length > 1 ? ` (it sets ${set.join(' and ')})` : ''}`,
        },
      ]);
    }
    const { resourceTypes, resources, projects, tools } = this.services;
    if (entry.resourceType) return told('RESOURCE_TYPE', resourceTypes.registerStep(entry.resourceType));
    if (entry.resource) return told('RESOURCE', resources.registerStep(entry.resource));
    if (entry.project) return told('PROJECT', projects.createStep(entry.project));
    if (entry.link) return told('LINK', projects.linkStep(entry.link));
    return told('TOOL', tools.registerStep(entry.tool!));
  }
}

/** How many entries from `index` on one step takes: a run of resources, projects, links or tools, up to RUN_STEP_ENTRIES; else one. */
function runLength(entries: readonly BatchEntryCommand[], index: number): number {
  const first = entries[index];
  const field = RUN_FIELDS.find((f) => first[f] != null);
  if (field === undefined) return 1;
  let end = index + 1;
  while (end < entries.length && end - index < RUN_STEP_ENTRIES && entries[end][field] != null) end++;
  return end - index;
}

/** The kinds of entries whose consecutive runs are one step each (not types: each changes the hierarchy the next sees). */
const RUN_FIELDS = ['resource', 'project', 'link', 'tool'] as const;

/** A run step whose results are told as RegisteredEntries. */
function toldAll(kind: ChangeKind, step: ChangeStep<{ id: string; name: string }[]>): ChangeStep<RegisteredEntry[]> {
  return { ...step, work: async (scope) => (await step.work(scope)).map(({ id, name }) => ({ kind, id, name })) };
}

/** A step of one entry, as a step of a list of them. */
function alone(step: ChangeStep<RegisteredEntry>): ChangeStep<RegisteredEntry[]> {
  return { ...step, work: async (scope) => [await step.work(scope)] };
}

/** A registration step whose result is told as a RegisteredEntry. */
function told(kind: ChangeKind, step: ChangeStep<{ id: string; name: string }>): ChangeStep<RegisteredEntry> {
  return {
    ...step,
    work: async (scope) => {
      const { id, name } = await step.work(scope);
      return { kind, id, name };
    },
  };
}
