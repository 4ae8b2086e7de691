import { ConflictError, NotFoundError, ToolValidationError, type ToolProblem } from '../core/errors';
import { isIdRef } from '../core/grammar';
import type { ResourceInfo, SlotDefinition } from '../core/model';
import { validateToolSlots, withDefaults, type SlotDraft } from '../core/tool-validation';
import type { TypeHierarchy } from '../core/type-hierarchy';
import type { NamedItem, Page, PageRequest, ToolRecord } from '../persistence/records';
import { newId } from './ids';
import { loaded, type ReadSession } from './versioning';
import { allInsertedUnlessTaken, insertedUnlessTaken, nameTakenMessage, requireFreeName } from './names';
import {
  EntryFailure,
  namedEach,
  namedIn,
  requireWellFormedRef,
  type ChangeOutcome,
  type ChangeRequest,
  type ChangeStep,
  type RegistryWrites,
  type WriteReader,
} from './registry-writes';

/** Input of registerTool (already grammar-checked at the edge). */
export interface RegisterToolCommand {
  readonly name: string;
  readonly description?: string | null;
  readonly resourceSlots: readonly SlotDraft[];
}

/** Input of updateTool: the tool `ref` names (else the one named `name`) gets this name, description and slots. */
export interface UpdateToolCommand extends RegisterToolCommand {
  readonly ref?: string | null;
}

/** Use cases of tools. */
export class ToolService {
  constructor(private readonly writes: RegistryWrites) {}

  /** The tool a ref names, or null. */
  find(ref: string, session: ReadSession): Promise<ToolRecord | null> {
    requireWellFormedRef('ref', ref);
    return session.toolByRef.load(ref);
  }

  /** A page of tools by name; `slotType` keeps those that need a resource of that type, sub-types included. */
  async list(request: PageRequest, session: ReadSession, slotType: string | null = null): Promise<Page<ToolRecord>> {
    return session.recordsOf(await this.listNames(request, session, slotType), session.toolById);
  }

  /** The same page as `list`, each tool by its id and name alone (read from the name index, no record looked up). */
  async listNames(
    request: PageRequest,
    session: ReadSession,
    slotType: string | null = null,
  ): Promise<Page<NamedItem>> {
    let slotTypeIds: string[] | null = null;
    if (slotType !== null) {
      requireWellFormedRef('filter.slotType', slotType);
      const types = await session.hierarchy();
      const type = types.byRef(slotType);
      if (!type) throw new NotFoundError('resource type', slotType);
      slotTypeIds = [type.id, ...types.descendantsOf(type.id).map((t) => t.id)];
    }
    return session.pageTools(request, slotTypeIds);
  }

  /**
   * Registers a tool and its slots in one transaction. After the grammar
   * (checked at the edge), the static checks run and report every problem as
   * TOOL_VALIDATION_FAILED; then a duplicate name (ignoring case) is CONFLICT.
   * A rejected tool stores nothing.
   */
  register(command: RegisterToolCommand, request: ChangeRequest): Promise<ChangeOutcome<ToolRecord>> {
    return this.writes.apply(request, this.registerStep(command));
  }

  /** registerTool as a step, alone or in a batch. */
  registerStep(command: RegisterToolCommand): ChangeStep<ToolRecord> {
    return {
      operation: 'registerTool',
      work: async ({ writer, hierarchy }) => {
        const slots = await this.checkedSlots(command, await hierarchy(), writer.reader);
        const tool = { id: newId(), name: command.name, description: command.description ?? null };
        return insertedUnlessTaken(writer.reader, 'tool', command.name, await writer.insertTool(tool, slots));
      },
      onViolation: (violation) => this.violationError(command.name, violation.kind),
      named: namedIn(command.name),
    };
  }

  /**
   * registerTool for a run of consecutive batch entries, as one run step: each tool checked as its own step
   * would check it, the static resources they name read once, the tools and their slots inserted a hundred rows
   * a statement.
   */
  registerRunStep(commands: readonly RegisterToolCommand[]): ChangeStep<ToolRecord[]> {
    return {
      operation: 'registerTool',
      ...namedEach(commands.map((command) => command.name)),
      work: async ({ writer, hierarchy }) => {
        const types = await hierarchy();
        const resources = await writer.reader.resourcesByRefs([...new Set(commands.flatMap(staticRefsOf))]);
        const lookup = lookups(types, resources);
        // As step by step: the tools before the first that fails its checks are registered, then that one fails.
        const checked: { tool: { id: string; name: string; description: string | null }; slots: SlotDefinition[] }[] =
          [];
        let invalid: EntryFailure | null = null;
        for (const [offset, command] of commands.entries()) {
          const { problems, slots } = validateToolSlots(command.resourceSlots, lookup);
          if (problems.length > 0) {
            invalid = new EntryFailure(offset, new ToolValidationError(problems));
            break;
          }
          checked.push({ tool: { id: newId(), name: command.name, description: command.description ?? null }, slots });
        }
        const records = await writer.insertTools(checked);
        // A name taken (by a stored tool, or by an entry before it) comes before the tool that fails its checks.
        const made = await allInsertedUnlessTaken(
          writer.reader,
          'tool',
          checked.map((c) => c.tool.name),
          records,
        );
        if (invalid) throw invalid;
        return made;
      },
    };
  }

  /**
   * Replaces an existing tool: its name, description and all its slots,
   * keeping its id. The tool is the one `ref` names, or else the one named
   * `name`; unknown: NOT_FOUND. Then the same static checks as registration,
   * and a new name must be free (ignoring case).
   */
  update(command: UpdateToolCommand, request: ChangeRequest): Promise<ChangeOutcome<ToolRecord>> {
    const ref = command.ref ?? command.name;
    requireWellFormedRef(command.ref != null ? 'input.ref' : 'input.name', ref);
    return this.writes.change(
      request,
      async ({ writer, hierarchy }) => {
        const [existing] = await writer.reader.toolsByRefs([ref]);
        if (!existing) throw new NotFoundError('tool', ref);
        const [slots, before] = await Promise.all([
          this.checkedSlots(command, await hierarchy(), writer.reader),
          writer.reader.slotsByToolIds([existing.id]),
        ]);
        if (command.name !== existing.name) await requireFreeName(writer.reader, 'tool', command.name, existing.id);
        return writer.replaceTool(
          { ...existing, slots: before },
          { id: existing.id, name: command.name, description: command.description ?? null },
          slots,
        );
      },
      (violation) => this.violationError(command.name, violation.kind),
      namedIn(ref, command.name),
    );
  }

  /** registerTool's static checks, without storing anything: every problem, or none. */
  async validate(command: RegisterToolCommand, session: ReadSession): Promise<ToolProblem[]> {
    const staticResources = await session.resourceByRef.loadMany(staticRefsOf(command));
    const found = staticResources.map(loaded).filter((r) => r !== null);
    return validateToolSlots(command.resourceSlots, lookups(await session.hierarchy(), found)).problems;
  }

  /** Runs the static checks inside a write; throws TOOL_VALIDATION_FAILED listing every problem. */
  private async checkedSlots(
    command: RegisterToolCommand,
    types: TypeHierarchy,
    reader: WriteReader,
  ): Promise<SlotDefinition[]> {
    const staticResources = await reader.resourcesByRefs(staticRefsOf(command));
    const { problems, slots } = validateToolSlots(command.resourceSlots, lookups(types, staticResources));
    if (problems.length > 0) throw new ToolValidationError(problems);
    return slots;
  }

  private violationError(name: string, kind: string) {
    return kind === 'foreign_key'
      ? new ConflictError('a resource type or static resource this tool uses was deleted meanwhile; try again')
      : new ConflictError(nameTakenMessage('tool', name));
  }

  /** Removes a tool and its slots. An unknown ref is NOT_FOUND. */
  unregister(ref: string, request: ChangeRequest): Promise<ChangeOutcome<string>> {
    requireWellFormedRef('ref', ref);
    return this.writes.change(
      request,
      async ({ writer }) => {
        const [tool] = await writer.reader.toolsByRefs([ref]);
        if (!tool) throw new NotFoundError('tool', ref);
        await writer.deleteTool({ ...tool, slots: await writer.reader.slotsByToolIds([tool.id]) });
        return tool.id;
      },
      undefined,
      namedIn(ref),
    );
  }
}

/** The distinct static resource refs a tool names. */
function staticRefsOf(command: RegisterToolCommand): string[] {
  return [
    ...new Set(command.resourceSlots.map((s) => withDefaults(s).staticResource).filter((r): r is string => r !== null)),
  ];
}

/** Lookups for the core's static checks over already-loaded data. */
function lookups(types: TypeHierarchy, resources: readonly ResourceInfo[]) {
  const byId = new Map(resources.map((r) => [r.id, r]));
  const byName = new Map(resources.map((r) => [r.name, r]));
  return {
    hierarchy: types,
    typeByRef: (ref: string) => types.byRef(ref),
    resourceByRef: (ref: string) => (isIdRef(ref) ? byId : byName).get(ref),
  };
}
