/**
 * Ids of the things that have no id column of their own, derived from what
 * identifies them, so that a client's normalized cache (Apollo, Relay, urql)
 * keeps one entry per thing, and keeps it across edits and requests.
 *
 * - A slot is its tool and its name (unique within the tool), a link its
 *   project and its resource (linked at most once): `<tool id>/<slot>`,
 *   `<project id>/<resource id>`.
 * - The rest start with a word that says what they are and a colon, then the
 *   ids and names that identify them: `usage:<resource id>` (what uses a
 *   resource), `static:<tool id>/<slot>` (a slot binding a resource
 *   statically), `cell:<project id>/<tool id>` (a matrix cell), and for a
 *   tool's bindings in a project with given params (the key: `<tool
 *   id>/<project id>`, then `?slot=ref&…` by slot, refs percent-encoded)
 *   `explanation:<key>`, `explanation:<key>#<slot>` (a slot's explanation),
 *   `explanation:<key>#<slot>@<resource id or encoded ref>` (a candidate) and
 *   `binding:<key>#<slot>` (a resolveBindings result). Binding changes'
 *   ids come from the change log (core/binding-impact.ts).
 *
 * None can equal a Node's id (a ULID) or another kind's: ULIDs have no "/"
 * or ":", slot names start with a lowercase letter or "_" and hold neither,
 * and no two kinds start alike. They are opaque to clients all the same.
 */

/** A slot's id: stable while its tool keeps a slot of that name, whatever else updateTool changes. */
export function slotId(toolId: string, slotName: string): string {
  return `${toolId}/${slotName}`;
}

/** A project–resource link's id: stable while the link exists, whatever its alias. */
export function linkId(projectId: string, resourceId: string): string {
  return `${projectId}/${resourceId}`;
}

/** The id of what uses a resource (Resource.usedBy): one per resource. */
export function usageId(resourceId: string): string {
  return `usage:${resourceId}`;
}

/** The id of a slot that binds a resource statically (ResourceUsage.staticBindings). */
export function staticBindingId(toolId: string, slotName: string): string {
  return `static:${toolId}/${slotName}`;
}

/** The id of a binding matrix cell: one tool in one project (cells resolve without params). */
export function cellId(projectId: string, toolId: string): string {
  return `cell:${projectId}/${toolId}`;
}

/** What a tool's bindings in a project depend on: the tool, the project and the params (by slot). */
export function bindingsKey(
  toolId: string,
  projectId: string,
  params: readonly { readonly slot: string; readonly resource: string }[],
): string {
  const base = `${toolId}/${projectId}`;
  if (params.length === 0) return base;
  const sorted = [...params].sort((a, b) => (a.slot < b.slot ? -1 : a.slot > b.slot ? 1 : 0));
  return `${base}?${sorted.map((p) => `${p.slot}=${encodeURIComponent(p.resource)}`).join('&')}`;
}

/** The id of an explanation (explainBindings, Tool.bindingsIn), from its bindingsKey. */
export function explanationId(key: string): string {
  return `explanation:${key}`;
}

/** The id of one slot's explanation, in the explanation with this id. */
export function slotExplanationId(explanation: string, slotName: string): string {
  return `${explanation}#${slotName}`;
}

/** The id of a candidate in the slot explanation with this id: by its resource, or the ref that named nothing. */
export function candidateId(slotExplanation: string, resourceId: string | null, ref: string): string {
  return `${slotExplanation}@${resourceId ?? encodeURIComponent(ref)}`;
}

/** The id of one slot's resolveBindings result, from the bindingsKey. */
export function bindingResultId(key: string, slotName: string): string {
  return `binding:${key}#${slotName}`;
}
