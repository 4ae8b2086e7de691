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
    // A run of consecutive resources, or of links to one project, is one run step: one statement for each
    // hundred of them, where a step each costs one or four.
    const steps: ChangeStep<RegisteredEntry[]>[] = [];
    for (let index = 0; index < entries.length;) {
      const length = runLength(entries, index);
      const run = entries.slice(index, index + length);
      if (length > 1 && run[0].resource) steps.push(this.resourceRun(run.map((entry) => entry.resource!)));
      else if (length > 1) steps.push(this.linkRun(run.map((entry) => entry.link!)));
      else steps.push(alone(singles[index]));
      index += length;
    }
    const outcome = await this.writes.changeAll(request, steps);
    return { ...outcome, result: outcome.result.flat() };
  }

  private resourceRun(commands: RegisterResourceCommand[]): ChangeStep<RegisteredEntry[]> {
    const step = this.services.resources.registerRunStep(commands);
    return {
      ...step,
      work: async (scope) => (await step.work(scope)).map(({ id, name }) => ({ kind: 'RESOURCE' as const, id, name })),
    };
  }

  private linkRun(commands: LinkResourceCommand[]): ChangeStep<RegisteredEntry[]> {
    const step = this.services.projects.linkRunStep(commands);
    return {
      ...step,
      work: async (scope) => (await step.work(scope)).map(({ id, name }) => ({ kind: 'LINK' as const, id, name })),
    };
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

/**
 * How many entries from `index` on one step takes: a run of resources, or of links naming the same project
 * (as written), up to RUN_STEP_ENTRIES; else one.
 */
function runLength(entries: readonly BatchEntryCommand[], index: number): number {
  const first = entries[index];
  const same = first.resource
    ? (entry: BatchEntryCommand) => entry.resource != null
    : first.link
      ? (entry: BatchEntryCommand) => entry.link != null && entry.link.project === first.link!.project
      : null;
  if (same === null) return 1;
  let end = index + 1;
  while (end < entries.length && end - index < RUN_STEP_ENTRIES && same(entries[end])) end++;
  return end - index;
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
