/** Resources, found by name: the way to a resource's page. */
import { useEffect, useState } from 'react';
import { request } from '../api';
import { ErrorNotice, Loading, PageTitle, Pager, ResourceLink, TypeLink, useCursorStack } from '../components';
import { navigate, useLiveEntries, useLoad } from '../hooks';
import { RESOURCES, type ResourcesQuery, type ResourcesQueryVariables } from '../operations';

const PAGE = 50;

export function ResourcesView({ q }: { q: string }) {
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);
  useEffect(() => {
    const timer = setTimeout(() => {
      if (text.trim() !== q) navigate({ view: 'resources', q: text.trim() }, { replace: true });
    }, 300);
    return () => clearTimeout(timer);
  }, [text, q]);

  const pages = useCursorStack(q);
  const loaded = useLoad(`${q} ${pages.after ?? ''}`, (signal) =>
    request<ResourcesQuery, ResourcesQueryVariables>(
      RESOURCES,
      { first: PAGE, after: pages.after, filter: q ? { nameContains: q } : null },
      { signal },
    ),
  );
  const { reload } = loaded;
  useLiveEntries((entries) => {
    if (entries.some((e) => e.kind === 'RESOURCE')) reload();
  });
  const list = loaded.data?.resources;

  return (
    <section className="resources-view" aria-labelledby="resources-title">
      <PageTitle id="resources-title">Resources</PageTitle>
      <form className="filters" role="search" aria-label="Find resources" onSubmit={(e) => e.preventDefault()}>
        <label className="field">
          <span>Name contains</span>
          <input
            type="search"
            value={text}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
      </form>
      {loaded.error && <ErrorNotice>{loaded.error}</ErrorNotice>}
      {!list && !loaded.error && <Loading what="resources" />}
      {list && (
        <>
          <Pager
            label="resources"
            from={pages.depth * PAGE}
            count={list.edges.length}
            total={list.totalCount}
            hasPrevious={pages.depth > 0}
            hasNext={list.pageInfo.hasNextPage}
            onPrevious={pages.previous}
            onNext={() => pages.next(list.pageInfo.endCursor)}
          />
          {list.edges.length > 0 && (
            <table className="data resources">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Description</th>
                </tr>
              </thead>
              <tbody>
                {list.edges.map(({ node }) => (
                  <tr key={node.id}>
                    <th scope="row">
                      <ResourceLink name={node.name} />
                    </th>
                    <td>
                      <TypeLink name={node.type.name} />
                    </td>
                    <td>{node.description ?? <span className="muted">—</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
