/**
 * Ids of the things that have no id column of their own, derived from what
 * identifies them, so that a client's normalized cache (Apollo, Relay, urql)
 * keeps one entry per slot and per link, and keeps it across edits: a slot is
 * its tool and its name (unique within the tool), a link its project and its
 * resource (linked at most once). They can never equal a Node's id (a ULID)
 * or each other (slot names start with a lowercase letter or "_", ids with a
 * digit or an uppercase letter).
 */

/** A slot's id: stable while its tool keeps a slot of that name, whatever else updateTool changes. */
export function slotId(toolId: string, slotName: string): string {
  return `${toolId}/${slotName}`;
}

/** A project–resource link's id: stable while the link exists, whatever its alias. */
export function linkId(projectId: string, resourceId: string): string {
  return `${projectId}/${resourceId}`;
}
