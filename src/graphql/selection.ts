import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { Window } from '../persistence/records';

/**
 * The names of the fields selected under the resolved field, or under the
 * path of field names below it (every field node of each, through fragments
 * and inline fragments; by field name, not alias). A field under
 * `@skip`/`@include` counts as selected: the answer may still need it.
 */
export function selectedFields(info: GraphQLResolveInfo, ...path: string[]): Set<string> {
  const visit = (selectionSet: SelectionSetNode | undefined, collect: (field: FieldNode) => void) => {
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === Kind.FIELD) collect(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet, collect);
      else visit(info.fragments[selection.name.value]?.selectionSet, collect);
    }
  };
  let level: readonly FieldNode[] = info.fieldNodes;
  for (const name of path) {
    const next: FieldNode[] = [];
    for (const node of level) visit(node.selectionSet, (field) => field.name.value === name && next.push(field));
    level = next;
  }
  const names = new Set<string>();
  for (const node of level) visit(node.selectionSet, (field) => names.add(field.name.value));
  return names;
}

/**
 * Whether a connection's count statement is needed: for `totalCount`, or for
 * the page-info flag on the far side of the cursor the page starts from
 * (`hasPreviousPage` after `after`, `hasNextPage` before `before` with
 * `last`), which the same statement answers. Anything else skips it.
 */
export function withCount<W extends Window<unknown>>(window: W, info: GraphQLResolveInfo): W {
  if (selectedFields(info).has('totalCount')) return window;
  const start = window.fromEnd ? window.before : window.after;
  if (start !== null && selectedFields(info, 'pageInfo').has(window.fromEnd ? 'hasNextPage' : 'hasPreviousPage'))
    return window;
  return { ...window, count: false };
}

/** The fields of an item that a page by name reads from its index alone (see NamedItem). */
export const NAME_INDEX_FIELDS: ReadonlySet<string> = new Set(['id', 'name', '__typename']);

/**
 * Whether the items under the path (a connection's `edges`, `node` by
 * default) are asked for nothing but their id and name, or not at all: then
 * the page's items need no record (`listNames`).
 */
export function namesOnly(info: GraphQLResolveInfo, ...path: string[]): boolean {
  for (const name of selectedFields(info, ...(path.length > 0 ? path : ['edges', 'node'])))
    if (!NAME_INDEX_FIELDS.has(name)) return false;
  return true;
}
