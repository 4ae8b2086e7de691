import { ConflictError, NotFoundError, ToolValidationError } from '../core/errors';
import { isIdRef } from '../core/grammar';
import { validateToolSlots, withDefaults, type SlotDraft } from '../core/tool-validation';
import type { Page, PageRequest, ToolRecord } from '../persistence/records';
import type { RegistryReader } from '../persistence/registry-store';
import { newId } from './ids';
import type { Loaders } from './loaders';
import { requireWellFormedRef, type RegistryWrites } from './registry-writes';

/** Input of registerTool (already grammar-checked at the edge). */
export interface RegisterToolCommand {
  readonly name: string;
  readonly description?: string | null;
  readonly resourceSlots: readonly SlotDraft[];
}

/** Use cases of tools. */
export class ToolService {
  constructor(
    private readonly writes: RegistryWrites,
    private readonly reader: RegistryReader,
  ) {}

  /** The tool a ref names, or null. */
  find(ref: string, loaders: Loaders): Promise<ToolRecord | null> {
    requireWellFormedRef('ref', ref);
    return loaders.toolByRef.load(ref);
  }

  /** A page of tools by name. */
  async list(request: PageRequest, loaders: Loaders): Promise<Page<ToolRecord>> {
    const page = await this.reader.pageTools(request);
    for (const tool of page.items) loaders.toolById.prime(tool.id, tool);
    return page;
  }

  /**
   * Registers a tool and its slots in one transaction. After the grammar
   * (checked at the edge), the static checks run and report every problem as
   * TOOL_VALIDATION_FAILED; then a duplicate name is CONFLICT. A rejected tool
   * stores nothing.
   */
  register(command: RegisterToolCommand, loaders: Loaders): Promise<ToolRecord> {
    return this.writes.change(
      loaders,
      async ({ writer, hierarchy }) => {
        const types = await hierarchy();
        const staticRefs = [...new Set(command.resourceSlots.map((s) => withDefaults(s).staticResource).filter((r): r is string => r !== null))];
        const staticResources = await writer.reader.resourcesByRefs(staticRefs);
        const { problems, slots } = validateToolSlots(command.resourceSlots, {
          hierarchy: types,
          typeByRef: (ref) => types.byRef(ref, isIdRef(ref)),
          resourceByRef: (ref) => staticResources.find((r) => (isIdRef(ref) ? r.id === ref : r.name === ref)),
        });
        if (problems.length > 0) throw new ToolValidationError(problems);
        const tool: ToolRecord = { id: newId(), name: command.name, description: command.description ?? null };
        await writer.insertTool(tool, slots);
        return tool;
      },
      (violation) =>
        violation.kind === 'foreign_key'
          ? new ConflictError('a resource type or static resource this tool uses was deleted meanwhile; try again')
          : new ConflictError(`a tool named '${command.name}' already exists`),
    );
  }

  /** Removes a tool and its slots. An unknown ref is NOT_FOUND. */
  unregister(ref: string, loaders: Loaders): Promise<boolean> {
    requireWellFormedRef('ref', ref);
    return this.writes.change(loaders, async ({ writer }) => {
      const [tool] = await writer.reader.toolsByRefs([ref]);
      if (!tool) throw new NotFoundError('tool', ref);
      return writer.deleteTool(tool.id);
    });
  }
}
