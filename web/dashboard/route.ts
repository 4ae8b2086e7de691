/**
 * The dashboard's pages and their URLs. Every page has a stable path under
 * the dashboard's root (/dashboard/), so it can be bookmarked, reloaded and
 * shared, and the browser's back button walks through them:
 *
 *   (the root)                                 the overview: what needs attention
 *   matrix?project=…&links=…&tool=…&slotType=… the matrix, with its filters
 *   tools?q=…&order=name    tools/<name>        tools, and one tool
 *   projects?q=…&order=name projects/<name>     projects, and one project
 *   resources?q=…           resources/<name>    resources, and one resource
 *   types                   types/<name>        the type graph, and one type
 *   history?kind=…&actor=…&ref=…               the change log
 *
 * A name is URL-encoded (tools/acme%2Flint); its slashes may also be left as
 * they are (tools/acme/lint). The server answers the page for each of these
 * paths (src/http/dashboard.ts, DASHBOARD_VIEWS). Links of the earlier
 * dashboard, which kept its views in the fragment (#/resource/x), still work:
 * legacyRoute reads them.
 *
 * No DOM here: the tests import this module.
 */
import { CHANGE_KINDS } from './operations/log';
import type { ChangeKind } from './generated/operations';

export interface MatrixRoute {
  readonly view: 'matrix';
  readonly project: string;
  readonly links: string;
  readonly tool: string;
  readonly slotType: string;
}

/** How a list of tools or projects is ordered: what needs attention first, or by name. */
export type ListOrder = 'attention' | 'name';

export type Route =
  | { readonly view: 'overview' }
  | MatrixRoute
  | { readonly view: 'tools'; readonly q: string; readonly order: ListOrder }
  | { readonly view: 'tool'; readonly name: string }
  | { readonly view: 'projects'; readonly q: string; readonly order: ListOrder }
  | { readonly view: 'project'; readonly name: string }
  | { readonly view: 'resources'; readonly q: string }
  | { readonly view: 'resource'; readonly name: string }
  | { readonly view: 'types' }
  | { readonly view: 'type'; readonly name: string }
  | { readonly view: 'history'; readonly kind: ChangeKind | null; readonly actor: string; readonly ref: string };

export const OVERVIEW: Route = { view: 'overview' };

export const EMPTY_MATRIX: MatrixRoute = { view: 'matrix', project: '', links: '', tool: '', slotType: '' };

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The kinds that have a page per thing: the list's path, and the thing's view. */
const THINGS = {
  tools: 'tool',
  projects: 'project',
  resources: 'resource',
  types: 'type',
} as const;

/**
 * The route a path names, relative to the dashboard's root (`tools/acme%2Flint`,
 * `matrix`, ``), with its query string (`?q=…`, or none). Anything unknown is the overview.
 */
export function parseRoute(path: string, search = ''): Route {
  const params = new URLSearchParams(search);
  const get = (key: string) => params.get(key)?.trim() ?? '';
  const order: ListOrder = get('order') === 'name' ? 'name' : 'attention';
  const segments = path.split('/');
  const [first, ...rest] = segments;
  // Everything after the kind is the name, its slashes included (encoded or not).
  const name = decode(rest.join('/'));
  switch (first) {
    case 'matrix':
      return {
        ...EMPTY_MATRIX,
        project: get('project'),
        links: get('links'),
        tool: get('tool'),
        slotType: get('slotType'),
      };
    case 'history': {
      const kind = get('kind');
      return {
        view: 'history',
        kind: (CHANGE_KINDS as readonly string[]).includes(kind) ? (kind as ChangeKind) : null,
        actor: get('actor'),
        ref: get('ref'),
      };
    }
    case 'tools':
    case 'projects':
    case 'resources':
    case 'types':
      if (name !== '') return { view: THINGS[first], name };
      if (first === 'types') return { view: 'types' };
      if (first === 'resources') return { view: 'resources', q: get('q') };
      return { view: first, q: get('q'), order };
    default:
      return OVERVIEW;
  }
}

function query(params: Record<string, string | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The path of a route, relative to the dashboard's root; parseRoute of it (split at `?`) is the route. */
export function formatRoute(route: Route): string {
  const thing = (kind: string, name: string) => `${kind}/${encodeURIComponent(name)}`;
  switch (route.view) {
    case 'overview':
      return '';
    case 'matrix':
      return `matrix${query({ project: route.project, links: route.links, tool: route.tool, slotType: route.slotType })}`;
    case 'tools':
    case 'projects':
      return `${route.view}${query({ q: route.q, order: route.order === 'name' ? 'name' : null })}`;
    case 'tool':
      return thing('tools', route.name);
    case 'project':
      return thing('projects', route.name);
    case 'resources':
      return `resources${query({ q: route.q })}`;
    case 'resource':
      return thing('resources', route.name);
    case 'types':
      return 'types';
    case 'type':
      return thing('types', route.name);
    case 'history':
      return `history${query({ kind: route.kind, actor: route.actor, ref: route.ref })}`;
  }
}

/** The route a link of the earlier dashboard named in its fragment (`#/resource/x`), or null. */
export function legacyRoute(hash: string): Route | null {
  if (!hash.startsWith('#/')) return null;
  const [path, search = ''] = hash.slice(2).split(/\?(.*)/s, 2);
  const [first, ...rest] = path.split('/');
  const name = rest.join('/');
  switch (first) {
    case 'resource':
      return name ? parseRoute(`resources/${name}`) : parseRoute('resources');
    case 'matrix':
    case 'types':
    case 'resources':
    case 'history':
      return parseRoute(path, search);
    default:
      return null;
  }
}

/** Routes for links. */
export const to = {
  tool: (name: string): Route => ({ view: 'tool', name }),
  project: (name: string): Route => ({ view: 'project', name }),
  resource: (name: string): Route => ({ view: 'resource', name }),
  type: (name: string): Route => ({ view: 'type', name }),
  history: (ref: string): Route => ({ view: 'history', kind: null, actor: '', ref }),
};

/** Which item of the header's navigation a route belongs to. */
export function sectionOf(route: Route): string {
  switch (route.view) {
    case 'tool':
      return 'tools';
    case 'project':
      return 'projects';
    case 'resource':
      return 'resources';
    case 'type':
      return 'types';
    default:
      return route.view;
  }
}
