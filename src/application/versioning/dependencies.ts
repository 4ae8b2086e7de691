/**
 * What a read depends on, and what a write touches, as the same keys: an
 * answer computed at registry version v is still right at a later version as
 * long as no write in between touched any key it read.
 *
 * Keys name one thing (`tool:<id>`), one name (`tool@<name>`: a lookup by
 * name, which a create, rename or delete can change), a list of one kind
 * (`tools`: pages, filters, counts), or a whole part of the registry (`types`:
 * the type hierarchy; `static`: every tool's static bindings; `links`: every
 * link; `changes`: the change log). Reads record them in the request's
 * session (./dependency-recorder.ts, through ./read-session.ts); writes derive them from what they changed
 * (the change-log subject of each edit, so a write seen only through the
 * change log, from another instance, touches the same keys).
 */
import type { ChangeKind } from '../../core/registry-edit';

/** A key: see the module comment. */
export type DependencyKey = string;

/** Named things, by the prefix of their keys. */
export type Named = 'tool' | 'resource' | 'project';

export const DEPENDS = {
  /** The type hierarchy: every resource type, its name and its parents. */
  types: 'types',
  /** Every tool's static bindings (what refers to a resource statically). */
  staticBindings: 'static',
  /** Every project–resource link (filters on links). */
  links: 'links',
  /** The change log. */
  changes: 'changes',
  /** Who may do what: every role grant and API token. */
  access: 'access',
  /** A list of every thing of a kind: pages, filters, totals, name suggestions. */
  list: (kind: Named): DependencyKey => `${kind}s`,
  /** One thing, by id: its record, and for a tool its slots, for a project its links. */
  thing: (kind: Named, id: string): DependencyKey => `${kind}:${id}`,
  /** What a name finds: nothing, or the thing of that name now. */
  name: (kind: Named, name: string): DependencyKey => `${kind}@${name}`,
  /** The links of one resource (which projects link it). */
  linksOf: (resourceId: string): DependencyKey => `links-of:${resourceId}`,
} as const;

/** What a change-log entry (or an edit, through its change-log subject) is about. */
export interface ChangeSubject {
  readonly kind: ChangeKind;
  readonly id: string;
  readonly name: string;
  readonly previousName: string | null;
  /** For a link: its resource. */
  readonly relatedId: string | null;
}

/** Every key a change touches. */
export function keysTouchedBy(subject: ChangeSubject): DependencyKey[] {
  const named = (kind: Named, extra: DependencyKey[] = []) => [
    DEPENDS.thing(kind, subject.id),
    DEPENDS.name(kind, subject.name),
    ...(subject.previousName === null ? [] : [DEPENDS.name(kind, subject.previousName)]),
    DEPENDS.list(kind),
    ...extra,
    DEPENDS.changes,
  ];
  switch (subject.kind) {
    case 'RESOURCE_TYPE':
      return [DEPENDS.types, DEPENDS.changes];
    case 'RESOURCE':
      return named('resource');
    case 'PROJECT':
      return named('project');
    case 'TOOL':
      return named('tool', [DEPENDS.staticBindings]);
    case 'LINK':
      // The entity of a link is its project (whose links and updatedAt change); the related thing its resource.
      return [
        DEPENDS.thing('project', subject.id),
        ...(subject.relatedId === null ? [] : [DEPENDS.linksOf(subject.relatedId)]),
        DEPENDS.links,
        DEPENDS.changes,
      ];
    case 'GRANT':
    case 'API_TOKEN':
      return [DEPENDS.access, DEPENDS.changes];
  }
}
