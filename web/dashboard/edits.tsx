/**
 * The changes the pages offer, each a dialog over ActionDialog: a form where
 * one is needed, then a dry run and its binding impact, then the change, then
 * its change-log entry. Link a resource, set or clear an alias, unlink, fix an
 * ambiguous slot, rename, and edit a description.
 */
import { useCallback, useId, useState, type ReactNode } from 'react';
import { request, RequestError } from './api';
import { ActionButton, ActionDialog, RefusalNote, useDialog, type Impact, type Preview } from './components';
import { useCan, useDebounced, useLoad } from './hooks';
import {
  LINK_RESOURCE,
  RESOURCES,
  UNLINK_RESOURCE,
  UPDATE_LINK,
  UPDATE_PROJECT,
  UPDATE_RESOURCE,
  UPDATE_RESOURCE_TYPE,
  UPDATE_TOOL,
  type LinkResourceMutation,
  type LinkResourceMutationVariables,
  type ResourcesQuery,
  type ResourcesQueryVariables,
  type ToolPageQuery,
  type UnlinkResourceMutation,
  type UnlinkResourceMutationVariables,
  type UpdateLinkMutation,
  type UpdateLinkMutationVariables,
  type UpdateProjectMutation,
  type UpdateProjectMutationVariables,
  type UpdateResourceMutation,
  type UpdateResourceMutationVariables,
  type UpdateResourceTypeMutation,
  type UpdateResourceTypeMutationVariables,
  type UpdateToolMutation,
  type UpdateToolMutationVariables,
} from './operations';

/** What every change answers. */
interface Payload {
  readonly registryVersion: number;
  readonly impact: Impact;
}

/** The dry run of a change: its impact, or why the server refuses it (a bad name, a name taken, …). */
async function previewOf(
  run: () => Promise<Payload>,
  confirm: string,
  note?: ReactNode,
  danger = false,
): Promise<Preview> {
  try {
    return { kind: 'ready', impact: (await run()).impact, confirm, note, danger };
  } catch (error) {
    if (error instanceof RequestError && ['BAD_USER_INPUT', 'CONFLICT', 'NOT_FOUND'].includes(error.code ?? ''))
      return { kind: 'blocked', reason: refusalOf(error) };
    throw error;
  }
}

/** The server's reasons for refusing a change, every problem it listed. */
function refusalOf(error: RequestError): string {
  const problems = error.extensions.problems;
  if (Array.isArray(problems) && problems.length > 0)
    return problems.map((p: { message?: string }) => p.message ?? JSON.stringify(p)).join('; ');
  return error.message;
}

// ---------------------------------------------------------------- links

/** Link a resource to a project, under an optional alias. */
export function LinkDialog(props: { project: string; onClose: (applied: boolean) => void; typeHint?: string }) {
  const { project, onClose } = props;
  const [resource, setResource] = useState('');
  const [alias, setAlias] = useState('');
  const id = useId();
  const typed = useDebounced(resource.trim(), 200);
  const suggestions = useLoad(`link ${typed} ${props.typeHint ?? ''}`, (signal) =>
    request<ResourcesQuery, ResourcesQueryVariables>(
      RESOURCES,
      { first: 10, filter: { nameContains: typed || null, type: props.typeHint ?? null } },
      { signal },
    ),
  );
  const run = useCallback(
    (dryRun: boolean) =>
      request<LinkResourceMutation, LinkResourceMutationVariables>(LINK_RESOURCE, {
        project,
        resource: resource.trim(),
        alias: alias.trim() || null,
        dryRun,
      }).then((d) => d.linkResource),
    [project, resource, alias],
  );
  const preview = useCallback(() => previewOf(() => run(true), `Link to ${project}`), [run, project]);
  const apply = useCallback(() => run(false), [run]);
  return (
    <ActionDialog
      title={`Link a resource to ${project}`}
      form={{
        ready: resource.trim() !== '',
        hint: props.typeHint
          ? `Suggested: resources of type ${props.typeHint} (or a sub-type), which the slot can take.`
          : undefined,
        fields: (
          <>
            <label className="field wide">
              <span>Resource (its name or id)</span>
              <input
                value={resource}
                list={`${id}-resources`}
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => setResource(e.target.value)}
              />
            </label>
            <datalist id={`${id}-resources`}>
              {suggestions.data?.resources.edges.map(({ node }) => (
                <option key={node.id} value={node.name}>
                  {node.type.name}
                </option>
              ))}
            </datalist>
            <label className="field wide">
              <span>Alias (optional: a contextual slot of this name then prefers this resource)</span>
              <input value={alias} autoComplete="off" spellCheck={false} onChange={(e) => setAlias(e.target.value)} />
            </label>
          </>
        ),
      }}
      preview={preview}
      apply={apply}
      done={`Linked ${resource.trim()} to ${project}${alias.trim() ? ` as ${alias.trim()}` : ''}`}
      onClose={onClose}
    />
  );
}

/** Set a link's alias, or clear it (an empty alias). */
export function AliasDialog(props: {
  project: string;
  resource: string;
  current: string | null;
  onClose: (applied: boolean) => void;
}) {
  const { project, resource, current, onClose } = props;
  const [alias, setAlias] = useState(current ?? '');
  const next = alias.trim() || null;
  const run = useCallback(
    (dryRun: boolean) =>
      request<UpdateLinkMutation, UpdateLinkMutationVariables>(UPDATE_LINK, {
        project,
        resource,
        alias: next,
        dryRun,
      }).then((d) => d.updateLink),
    [project, resource, next],
  );
  const preview = useCallback(
    () => previewOf(() => run(true), next === null ? 'Clear the alias' : `Set alias ${next}`),
    [run, next],
  );
  const apply = useCallback(() => run(false), [run]);
  return (
    <ActionDialog
      title={`The alias of ${resource} in ${project}`}
      form={{
        ready: next !== current,
        hint: 'Leave it empty to clear the alias. A contextual slot named like the alias prefers this resource.',
        fields: (
          <label className="field wide">
            <span>Alias</span>
            <input value={alias} autoComplete="off" spellCheck={false} onChange={(e) => setAlias(e.target.value)} />
          </label>
        ),
      }}
      preview={preview}
      apply={apply}
      done={
        next === null
          ? `Cleared the alias of ${resource} in ${project}`
          : `Set alias ${next} on ${resource} in ${project}`
      }
      onClose={onClose}
    />
  );
}

/** Unlink a resource from a project. */
export function UnlinkDialog(props: { project: string; resource: string; onClose: (applied: boolean) => void }) {
  const { project, resource, onClose } = props;
  const run = useCallback(
    (dryRun: boolean) =>
      request<UnlinkResourceMutation, UnlinkResourceMutationVariables>(UNLINK_RESOURCE, {
        project,
        resource,
        dryRun,
      }).then((d) => d.unlinkResource),
    [project, resource],
  );
  const preview = useCallback(
    () => previewOf(() => run(true), `Unlink from ${project}`, undefined, true),
    [run, project],
  );
  const apply = useCallback(() => run(false), [run]);
  return (
    <ActionDialog
      title={`Unlink ${resource} from ${project}?`}
      preview={preview}
      apply={apply}
      done={`Unlinked ${resource} from ${project}`}
      onClose={onClose}
    />
  );
}

/**
 * The fix explainBindings suggests for an ambiguous slot, in one click after
 * the preview: give one of the tied resources the slot's name as its alias.
 */
export function FixAliasDialog(props: {
  project: string;
  slot: string;
  resource: string;
  onClose: (applied: boolean) => void;
}) {
  const { project, slot, resource, onClose } = props;
  const run = useCallback(
    (dryRun: boolean) =>
      request<UpdateLinkMutation, UpdateLinkMutationVariables>(UPDATE_LINK, {
        project,
        resource,
        alias: slot,
        dryRun,
      }).then((d) => d.updateLink),
    [project, resource, slot],
  );
  const preview = useCallback(
    () =>
      previewOf(
        () => run(true),
        `Set alias ${slot} on ${resource}`,
        <>
          Slots named <code>{slot}</code> in {project} then take {resource}.
        </>,
      ),
    [run, slot, resource, project],
  );
  const apply = useCallback(() => run(false), [run]);
  return (
    <ActionDialog
      title={`Bind ${slot} to ${resource} in ${project}?`}
      preview={preview}
      apply={apply}
      done={`Set alias ${slot} on ${resource} in ${project}`}
      onClose={onClose}
    />
  );
}

/** Clear an alias another resource holds, so the slot's fix can give it to one that fits. */
export function ClearAliasDialog(props: {
  project: string;
  resource: string;
  alias: string;
  onClose: (applied: boolean) => void;
}) {
  const { project, resource, alias, onClose } = props;
  const run = useCallback(
    (dryRun: boolean) =>
      request<UpdateLinkMutation, UpdateLinkMutationVariables>(UPDATE_LINK, {
        project,
        resource,
        alias: null,
        dryRun,
      }).then((d) => d.updateLink),
    [project, resource],
  );
  const preview = useCallback(() => previewOf(() => run(true), `Clear alias ${alias}`), [run, alias]);
  const apply = useCallback(() => run(false), [run]);
  return (
    <ActionDialog
      title={`Clear the alias ${alias} from ${resource} in ${project}?`}
      preview={preview}
      apply={apply}
      done={`Cleared the alias of ${resource} in ${project}`}
      onClose={onClose}
    />
  );
}

// ---------------------------------------------------------------- names and descriptions

/** The kinds of thing that can be renamed and described. */
export type EditableKind = 'tool' | 'project' | 'resource' | 'type';

/** A thing's name and description, and for a tool its slots (updateTool replaces them whole). */
export interface Editable {
  readonly kind: EditableKind;
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly slots?: NonNullable<ToolPageQuery['tool']>['resourceSlots'];
}

/** Runs the mutation that changes a thing's name or description (what is left undefined stays). */
function updateThing(thing: Editable, change: { name?: string; description?: string | null }, dryRun: boolean) {
  switch (thing.kind) {
    case 'project':
      return request<UpdateProjectMutation, UpdateProjectMutationVariables>(UPDATE_PROJECT, {
        input: { ref: thing.id, ...change },
        dryRun,
      }).then((d) => d.updateProject);
    case 'resource':
      return request<UpdateResourceMutation, UpdateResourceMutationVariables>(UPDATE_RESOURCE, {
        input: { ref: thing.id, ...change },
        dryRun,
      }).then((d) => d.updateResource);
    case 'type':
      return request<UpdateResourceTypeMutation, UpdateResourceTypeMutationVariables>(UPDATE_RESOURCE_TYPE, {
        input: { ref: thing.id, ...change },
        dryRun,
      }).then((d) => d.updateResourceType);
    case 'tool':
      // updateTool replaces the whole definition: the slots go back as they are.
      return request<UpdateToolMutation, UpdateToolMutationVariables>(UPDATE_TOOL, {
        input: {
          ref: thing.id,
          name: change.name ?? thing.name,
          description: change.description === undefined ? thing.description : change.description,
          resourceSlots: (thing.slots ?? []).map((slot) => ({
            name: slot.name,
            resourceType: slot.resourceType.name,
            access: slot.access,
            binding: slot.binding,
            required: slot.required,
            staticResource: slot.staticResource?.name ?? null,
          })),
        },
        dryRun,
      }).then((d) => d.updateTool);
  }
}

const KIND_WORD: Record<EditableKind, string> = {
  tool: 'tool',
  project: 'project',
  resource: 'resource',
  type: 'resource type',
};

/** Rename a thing; it keeps its id, links and history. */
export function RenameDialog(props: { thing: Editable; onClose: (applied: boolean, name: string) => void }) {
  const { thing, onClose } = props;
  const [name, setName] = useState(thing.name);
  const next = name.trim();
  const run = useCallback((dryRun: boolean) => updateThing(thing, { name: next }, dryRun), [thing, next]);
  const preview = useCallback(() => previewOf(() => run(true), `Rename to ${next}`), [run, next]);
  const apply = useCallback(() => run(false), [run]);
  return (
    <ActionDialog
      title={`Rename the ${KIND_WORD[thing.kind]} ${thing.name}`}
      form={{
        ready: next !== '' && next !== thing.name,
        hint: `It keeps its id${thing.kind === 'project' ? ', its links' : ''} and its history; what refers to it by id is unaffected.`,
        fields: (
          <label className="field wide">
            <span>New name</span>
            <input value={name} autoComplete="off" spellCheck={false} onChange={(e) => setName(e.target.value)} />
          </label>
        ),
      }}
      preview={preview}
      apply={apply}
      done={`Renamed ${thing.name} to ${next}`}
      onClose={(applied) => onClose(applied, next)}
    />
  );
}

/** Edit a thing's description (empty clears it). */
export function DescribeDialog(props: { thing: Editable; onClose: (applied: boolean) => void }) {
  const { thing, onClose } = props;
  const [text, setText] = useState(thing.description ?? '');
  const next = text.trim() || null;
  const run = useCallback((dryRun: boolean) => updateThing(thing, { description: next }, dryRun), [thing, next]);
  const preview = useCallback(
    () => previewOf(() => run(true), next === null ? 'Clear the description' : 'Save the description'),
    [run, next],
  );
  const apply = useCallback(() => run(false), [run]);
  return (
    <ActionDialog
      title={`The description of ${thing.name}`}
      form={{
        ready: next !== (thing.description ?? null),
        hint: 'Free text, at most 4,000 characters; leave it empty to clear it.',
        fields: (
          <label className="field wide">
            <span>Description</span>
            <textarea rows={5} value={text} onChange={(e) => setText(e.target.value)} />
          </label>
        ),
      }}
      preview={preview}
      apply={apply}
      done={next === null ? `Cleared the description of ${thing.name}` : `Saved the description of ${thing.name}`}
      onClose={onClose}
    />
  );
}

const OPERATION = {
  tool: 'updateTool',
  project: 'updateProject',
  resource: 'updateResource',
  type: 'updateResourceType',
} as const;

/**
 * A page's Rename… and Edit description… buttons, with their dialogs. A
 * rename takes the page to the thing's new name (its new URL) when it is done.
 */
export function ThingActions(props: { thing: Editable; onRenamed: (name: string) => void }) {
  // (The page says once why its changes are not available: see EditsNote.)
  const { thing, onRenamed } = props;
  const permission = useCan(OPERATION[thing.kind], thing.name);
  const open = useDialog();
  return (
    <>
      <ActionButton
        permission={permission}
        onClick={(from) =>
          open(from, (close) => (
            <RenameDialog
              thing={thing}
              onClose={(applied, name) => {
                close();
                if (applied) onRenamed(name);
              }}
            />
          ))
        }
      >
        Rename…
      </ActionButton>
      <ActionButton
        permission={permission}
        onClick={(from) => open(from, (close) => <DescribeDialog thing={thing} onClose={close} />)}
      >
        {thing.description ? 'Edit the description…' : 'Add a description…'}
      </ActionButton>
    </>
  );
}

/** Says once, under a page's title, why the page's changes are not available (nothing when they are). */
export function EditsNote({ kind, name }: { kind: EditableKind; name: string }) {
  return <RefusalNote permission={useCan(OPERATION[kind], name)} />;
}
