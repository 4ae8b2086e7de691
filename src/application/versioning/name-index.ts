import type { RegistryEdit } from '../../core/registry-edit';
import { compareNames } from '../../core/type-hierarchy';
import type { NamedItem, Page, PageRequest } from '../../persistence/records';
import { pageOf } from '../../persistence/registry-reader';
import type { ChangeIndex } from './change-index';
import { DEPENDS, type Named } from './dependencies';

/** The kinds whose every item is listed by name, and the edits that change them. */
const KIND_OF_EDIT = { TOOL: 'tool', PROJECT: 'project', RESOURCE: 'resource' } as const satisfies Partial<
  Record<RegistryEdit['kind'], Named>
>;

/** Every item of one kind, in name order, and the registry version the list is known to be right at. */
interface NameList {
  readonly names: string[];
  readonly ids: string[];
  version: number;
}

/**
 * Every tool's, project's and resource's name and id, in name order, kept in
 * memory so that a page by name with no filter (a dashboard's, any cursor,
 * any size) is a binary search instead of a statement: the page, its total
 * and whether items lie beyond it, as the keyset statements answer them.
 *
 * A list is read whole (one statement, ids and names from the name index)
 * the first time a page of its kind is asked, and then kept up to date with
 * this process's writes, each applied from its edits (a create inserts, a
 * delete removes, a rename moves) when the list is right at the version just
 * before. A list that missed a write (another instance's, on PostgreSQL) is
 * used again only when the change index says no write since touched the
 * kind's list (`DEPENDS.list`), and read whole again otherwise.
 */
export class NameIndexes {
  private readonly lists = new Map<Named, NameList>();
  private readonly reading = new Map<Named, Promise<NameList>>();

  constructor(private readonly changes: ChangeIndex) {}

  /**
   * A page of `kind` by name at registry `version`, from the list (read with
   * `readAll` when it is not known to be right at that version).
   */
  async page(
    kind: Named,
    request: PageRequest,
    version: number,
    readAll: () => Promise<NamedItem[]>,
  ): Promise<Page<NamedItem>> {
    const list = await this.listAt(kind, version, readAll);
    const { names, ids } = list;
    const total = names.length;
    const start = request.after === null ? 0 : firstAbove(names, request.after);
    const end = request.before === null ? total : firstAtOrAbove(names, request.before);
    const from = request.fromEnd ? Math.max(start, end - request.size - 1) : start;
    const to = request.fromEnd ? end : Math.min(end, start + request.size + 1);
    const ascending: NamedItem[] = [];
    for (let i = from; i < to; i++) ascending.push({ id: ids[i], name: names[i] });
    const counted = request.count !== false;
    // Items on the far side of the cursor the page starts from: at or before `after`, at or after `before`.
    const outside = !counted
      ? 0
      : request.fromEnd
        ? request.before !== null && end < total
          ? 1
          : 0
        : start > 0 && request.after !== null
          ? 1
          : 0;
    return pageOf(ascending, request, counted ? total : -1, outside);
  }

  /** After this process's write commits: applies its edits to each list right at the version before it. */
  committed(version: number, edits: readonly RegistryEdit[]): void {
    for (const [kind, list] of this.lists) {
      if (list.version !== version - 1) continue;
      for (const edit of edits) {
        if (edit.kind !== 'TOOL' && edit.kind !== 'PROJECT' && edit.kind !== 'RESOURCE') continue;
        if (KIND_OF_EDIT[edit.kind] !== kind) continue;
        if (edit.before) remove(list, edit.before.name);
        if (edit.after) insert(list, edit.after.name, edit.after.id);
      }
      list.version = version;
    }
  }

  /** How many names the lists hold in all. */
  get size(): number {
    let names = 0;
    for (const list of this.lists.values()) names += list.names.length;
    return names;
  }

  /** Forgets every list (for tests that count what a request reads from the database). */
  clear(): void {
    this.lists.clear();
  }

  private async listAt(kind: Named, version: number, readAll: () => Promise<NamedItem[]>): Promise<NameList> {
    const held = this.lists.get(kind);
    if (held) {
      // A list newer than the request is what the request's statements would read too.
      if (held.version >= version) return held;
      const catchingUp = this.changes.caughtUpTo(version);
      if (catchingUp) await catchingUp;
      if (this.changes.unchangedSinceKnown(held.version, [DEPENDS.list(kind)], version)) {
        held.version = Math.max(held.version, version);
        return held;
      }
    }
    let reading = this.reading.get(kind);
    if (!reading) {
      reading = readAll().then((items) => {
        const list = { names: items.map((i) => i.name), ids: items.map((i) => i.id), version };
        this.lists.set(kind, list);
        return list;
      });
      this.reading.set(kind, reading);
      const done = () => this.reading.delete(kind);
      reading.then(done, done);
    }
    return reading;
  }
}

/** The index of the first name after `name` (byte order, as the database orders them). */
function firstAbove(names: readonly string[], name: string): number {
  return firstWhere(names, (compared) => compared > 0, name);
}

/** The index of the first name at or after `name`. */
function firstAtOrAbove(names: readonly string[], name: string): number {
  return firstWhere(names, (compared) => compared >= 0, name);
}

/** Binary search: the first index whose name, compared with `name`, satisfies `from` (false before it, true after). */
function firstWhere(names: readonly string[], from: (compared: number) => boolean, name: string): number {
  let lo = 0;
  let hi = names.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (from(compareNames(names[mid], name))) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function insert(list: NameList, name: string, id: string): void {
  const at = firstAtOrAbove(list.names, name);
  if (list.names[at] === name) {
    list.ids[at] = id;
    return;
  }
  list.names.splice(at, 0, name);
  list.ids.splice(at, 0, id);
}

function remove(list: NameList, name: string): void {
  const at = firstAtOrAbove(list.names, name);
  if (list.names[at] !== name) return;
  list.names.splice(at, 1);
  list.ids.splice(at, 1);
}
