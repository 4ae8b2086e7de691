import { isIdRef, LIMITS } from '../core/grammar';
import { BadInputError } from '../core/errors';
import type { TypeNode } from '../core/model';
import type {
  ApiTokenRecord,
  ChangeRecord,
  GrantRecord,
  ProjectRecord,
  ResourceRecord,
  ToolRecord,
} from '../persistence/records';
import { loaded, type ReadSession } from './versioning';

/** Anything the registry holds that has an id of its own, with its kind. */
export type RegistryNode =
  | { readonly kind: 'TOOL'; readonly record: ToolRecord }
  | { readonly kind: 'RESOURCE'; readonly record: ResourceRecord }
  | { readonly kind: 'RESOURCE_TYPE'; readonly record: TypeNode }
  | { readonly kind: 'PROJECT'; readonly record: ProjectRecord }
  | { readonly kind: 'CHANGE'; readonly record: ChangeRecord }
  | { readonly kind: 'GRANT'; readonly record: GrantRecord }
  | { readonly kind: 'API_TOKEN'; readonly record: ApiTokenRecord };

/**
 * Lookup by id alone, whatever the kind (Relay's node and nodes). Ids are
 * ULIDs, unique across every table, so an id names at most one thing. The
 * ids asked for in one tick are read with the request's loaders: one
 * statement per table for all of them (fewer when cached), types from the
 * cached hierarchy. Grants and API tokens are looked for only among the ids
 * none of those found (one statement each, when any is left).
 */
export class NodeService {
  /** The thing each id names, or null (also for a string that is not an id), in order. */
  async find(ids: readonly string[], session: ReadSession): Promise<(RegistryNode | null)[]> {
    if (ids.length > LIMITS.pageSize) {
      throw new BadInputError([{ field: 'ids', message: `at most ${LIMITS.pageSize} ids per request` }]);
    }
    const found = new Map<string, RegistryNode>();
    const wellFormed = [...new Set(ids.filter(isIdRef))];
    if (wellFormed.length > 0) {
      // Types are in the (cached) hierarchy; only the other ids are looked up in the tables.
      const hierarchy = await session.hierarchy();
      const others: string[] = [];
      for (const id of wellFormed) {
        const type = hierarchy.byId(id);
        if (type) found.set(id, { kind: 'RESOURCE_TYPE', record: type });
        else others.push(id);
      }
      if (others.length > 0) {
        const [tools, resources, projects, changes] = await Promise.all([
          session.toolById.loadMany(others),
          session.resourceById.loadMany(others),
          session.projectById.loadMany(others),
          session.changeById.loadMany(others),
        ]);
        others.forEach((id, i) => {
          const tool = loaded(tools[i]);
          const resource = loaded(resources[i]);
          const project = loaded(projects[i]);
          const change = loaded(changes[i]);
          if (tool) found.set(id, { kind: 'TOOL', record: tool });
          else if (resource) found.set(id, { kind: 'RESOURCE', record: resource });
          else if (project) found.set(id, { kind: 'PROJECT', record: project });
          else if (change) found.set(id, { kind: 'CHANGE', record: change });
        });
        const rest = others.filter((id) => !found.has(id));
        if (rest.length > 0) {
          const [grants, tokens] = await Promise.all([
            session.access.grantsByIds(rest),
            session.access.apiTokensByIds(rest),
          ]);
          for (const record of grants) found.set(record.id, { kind: 'GRANT', record });
          for (const record of tokens) found.set(record.id, { kind: 'API_TOKEN', record });
        }
      }
    }
    return ids.map((id) => found.get(id) ?? null);
  }
}
