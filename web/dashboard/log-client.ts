/** change-log.ts's searches and pages, over this server's `changes` query. */
import { request } from './api';
import { pageEndingAt, readPage, type CountAfter, type KnownCounts, type LogPage } from './change-log';
import {
  CHANGES,
  NEWEST_CHANGE,
  changeCountsDocument,
  type ChangeCountsData,
  type ChangeFilter,
  type ChangesQuery,
  type ChangesQueryVariables,
  type NewestChangeQuery,
} from './operations';

/** f(v) for the filter: one request of up to 15 aliased counts. */
export function countAfterFor(filter: ChangeFilter, signal?: AbortSignal): CountAfter {
  return async (versions) => {
    const variables = Object.fromEntries(versions.map((v, i) => [`f${i}`, { ...filter, sinceVersion: v }]));
    const data = await request<ChangeCountsData>(changeCountsDocument(versions.length), variables, { signal });
    return versions.map((_, i) => data[`c${i}`].totalCount);
  };
}

/** The newest version in the change log (0 when it is empty): where the live subscription starts. */
export async function fetchNewestVersion(signal?: AbortSignal): Promise<number> {
  const data = await request<NewestChangeQuery>(NEWEST_CHANGE, {}, { signal });
  return data.changes.edges[0]?.node.version ?? 0;
}

/** The page of the log that ends at `hi` (null: the newest), newest first, of about `size` entries. */
export async function fetchLogPage(
  filter: ChangeFilter,
  size: number,
  hi: number | null,
  known: KnownCounts,
  signal?: AbortSignal,
): Promise<LogPage> {
  const bounds = await pageEndingAt(countAfterFor(filter, signal), size, hi, known);
  return readPage(
    async (pageFilter, first, after) => {
      const data = await request<ChangesQuery, ChangesQueryVariables>(
        CHANGES,
        { first, after, filter: pageFilter },
        { signal },
      );
      return { edges: data.changes.edges, hasNextPage: data.changes.pageInfo.hasNextPage };
    },
    filter,
    bounds,
  );
}
