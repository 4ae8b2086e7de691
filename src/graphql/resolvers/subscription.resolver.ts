import { Arg, Authorized, Int, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import type { BindingChange as BindingChangeRecord } from '../../core/binding-impact';
import { BadInputError } from '../../core/errors';
import { checkRef } from '../../core/grammar';
import type { ChangeKind as CoreChangeKind } from '../../core/registry-edit';
import type { ChangeRecord } from '../../persistence/records';
import { READ } from '../authorization';
import type { RequestContext } from '../context';
import { selectedFields } from '../selection';
import { BindingChange } from '../types/binding-impact.type';
import { ChangeKind } from '../types/enums';
import { RegistryChange } from '../types/registry-change.type';

interface RegistryChangedArgs {
  afterVersion?: number | null;
  kinds?: CoreChangeKind[] | null;
}

interface BindingsChangedArgs {
  afterVersion?: number | null;
  project?: string | null;
  tool?: string | null;
}

/** Live updates over WebSocket (graphql-transport-ws): the change log and the binding changes it records. */
@Resolver()
export class SubscriptionResolver {
  @Authorized(READ)
  @Subscription(() => RegistryChange, {
    description:
      'Every change-log entry, oldest first, as it commits. With afterVersion, first every entry after that version from the log, then live, with no gap and no duplicate at the seam: a client that reconnects with the last version it saw misses nothing. Entries about access (GRANT, API_TOKEN) only to OWNERs of their namespace.',
    subscribe: ({ args, context, info }: SubscribeResolverData<unknown, unknown, RequestContext>) => {
      const { afterVersion, kinds } = args as RegistryChangedArgs;
      const wanted = kinds && kinds.length > 0 ? new Set(kinds) : null;
      const { access, services } = context;
      // Binding changes are read from the log only for a subscription that shows them.
      const showsBindingChanges = selectedFields(info).has('bindingChanges');
      return feed(context, afterVersion, showsBindingChanges, (entry) => {
        if (wanted !== null && !wanted.has(entry.kind)) return [];
        // Rule: access entries (GRANT, API_TOKEN) only for OWNERs of their namespace, as the principal holds now.
        const visible = services.access.canSeeChange(access.principal, entry);
        return visible === true ? [entry] : visible === false ? [] : visible.then((yes) => (yes ? [entry] : []));
      });
    },
  })
  registryChanged(
    @Root() change: ChangeRecord,
    @Arg('afterVersion', () => Int, {
      nullable: true,
      description: 'Replay the entries after this registry version first.',
    })
    _afterVersion: number | null,
    @Arg('kinds', () => [ChangeKind], { nullable: true, description: 'Only entries about these kinds of thing.' })
    _kinds: CoreChangeKind[] | null,
  ): ChangeRecord {
    return change;
  }

  @Authorized(READ)
  @Subscription(() => BindingChange, {
    description:
      'Every binding change that committed mutations make, in the order they commit, filtered to one project or one tool (a ref: id or name) when given. With afterVersion, those of the entries after that version first.',
    subscribe: ({ args, context }: SubscribeResolverData<unknown, unknown, RequestContext>) => {
      const { afterVersion, project, tool } = args as BindingsChangedArgs;
      for (const [field, ref] of [
        ['project', project],
        ['tool', tool],
      ] as const) {
        const problem = ref == null ? null : checkRef(ref);
        if (problem) throw new BadInputError([{ field, message: `${field} ${problem}` }]);
      }
      const wanted = (change: BindingChangeRecord): boolean => {
        if (project != null && change.projectId !== project && change.projectName !== project) return false;
        return tool == null || change.toolId === tool || change.toolName === tool;
      };
      return feed(context, afterVersion, true, (entry) => entry.bindingChanges.filter(wanted));
    },
  })
  bindingsChanged(
    @Root() change: BindingChangeRecord,
    @Arg('project', () => String, { nullable: true, description: 'Only changes in this project (a ref).' })
    _project: string | null,
    @Arg('tool', () => String, { nullable: true, description: 'Only changes of this tool (a ref).' })
    _tool: string | null,
    @Arg('afterVersion', () => Int, {
      nullable: true,
      description: 'Replay the changes of the entries after this registry version first.',
    })
    _afterVersion: number | null,
  ): BindingChangeRecord {
    return change;
  }
}

/**
 * One subscription's feed: replayed after `afterVersion` when given (refused when the log does not reach that
 * far), then live; entries are read with their binding changes only when the subscription shows them.
 */
async function feed<T>(
  context: RequestContext,
  afterVersion: number | null | undefined,
  bindingChanges: boolean,
  items: (entry: ChangeRecord) => readonly T[] | Promise<readonly T[]>,
): Promise<AsyncIterableIterator<T>> {
  if (afterVersion != null) {
    if (!Number.isSafeInteger(afterVersion) || afterVersion < 0)
      throw new BadInputError([{ field: 'afterVersion', message: 'afterVersion must be 0 or more' }]);
    const end = await context.session.currentVersion();
    if (afterVersion > end)
      throw new BadInputError([
        {
          field: 'afterVersion',
          message: `afterVersion ${afterVersion} is past the end of the change log: the log ends at ${end}`,
        },
      ]);
  }
  return context.services.feed.subscribe({
    afterVersion: afterVersion ?? null,
    bindingChanges,
    items,
    ready: context.transport?.ready,
  });
}
