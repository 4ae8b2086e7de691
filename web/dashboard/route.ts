/**
 * The dashboard's views live in the URL's fragment, so the server serves one
 * page (/dashboard) and every view can be bookmarked, reloaded and shared:
 *
 *   #/matrix?project=…&links=…&tool=…&slotType=…   the matrix (the default), with its filters
 *   #/types  #/types/<type>                          the type graph, with a type selected
 *   #/resources?q=…                                  resources, found by name
 *   #/resource/<name>                                one resource
 *   #/history?kind=…&actor=…&ref=…                   the change log
 *
 * No DOM here: the tests import this module.
 */
import { CHANGE_KINDS, type ChangeKind } from './operations';

export interface MatrixRoute {
  readonly view: 'matrix';
  readonly project: string;
  readonly links: string;
  readonly tool: string;
  readonly slotType: string;
}

export type Route =
  | MatrixRoute
  | { readonly view: 'types'; readonly type: string | null }
  | { readonly view: 'resources'; readonly q: string }
  | { readonly view: 'resource'; readonly name: string }
  | { readonly view: 'history'; readonly kind: ChangeKind | null; readonly actor: string; readonly ref: string };

export const DEFAULT_ROUTE: MatrixRoute = { view: 'matrix', project: '', links: '', tool: '', slotType: '' };

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The route a fragment names (`#/…`); anything else is the matrix. */
export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const [path, query = ''] = raw.split(/\?(.*)/s, 2);
  const params = new URLSearchParams(query);
  const get = (key: string) => params.get(key)?.trim() ?? '';
  const segments = path.split('/').filter((s) => s !== '');
  switch (segments[0]) {
    case 'types':
      return { view: 'types', type: segments.length > 1 ? decode(segments.slice(1).join('/')) : null };
    case 'resources':
      return { view: 'resources', q: get('q') };
    case 'resource':
      if (segments.length > 1) return { view: 'resource', name: decode(segments.slice(1).join('/')) };
      return { view: 'resources', q: '' };
    case 'history': {
      const kind = get('kind');
      return {
        view: 'history',
        kind: (CHANGE_KINDS as readonly string[]).includes(kind) ? (kind as ChangeKind) : null,
        actor: get('actor'),
        ref: get('ref'),
      };
    }
    default:
      return {
        ...DEFAULT_ROUTE,
        project: get('project'),
        links: get('links'),
        tool: get('tool'),
        slotType: get('slotType'),
      };
  }
}

function query(params: Record<string, string | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The fragment of a route, `#/…`; parseRoute(formatRoute(r)) is r. */
export function formatRoute(route: Route): string {
  switch (route.view) {
    case 'matrix':
      return `#/matrix${query({ project: route.project, links: route.links, tool: route.tool, slotType: route.slotType })}`;
    case 'types':
      return route.type === null ? '#/types' : `#/types/${encodeURIComponent(route.type)}`;
    case 'resources':
      return `#/resources${query({ q: route.q })}`;
    case 'resource':
      return `#/resource/${encodeURIComponent(route.name)}`;
    case 'history':
      return `#/history${query({ kind: route.kind, actor: route.actor, ref: route.ref })}`;
  }
}

/** Shorthands for links. */
export const href = {
  resource: (name: string) => formatRoute({ view: 'resource', name }),
  type: (name: string) => formatRoute({ view: 'types', type: name }),
  history: (ref: string) => formatRoute({ view: 'history', kind: null, actor: '', ref }),
};
