/**
 * Search across kinds, from every page: the header's box (`/` focuses it)
 * asks the API's name filters for a few tools, projects, resources and types
 * whose names contain the text, and lists them grouped by kind. Arrow keys
 * move through them, Enter opens one, Escape closes the list. It is the ARIA
 * combobox pattern: the focus stays in the box, and the active option is
 * named by aria-activedescendant.
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { describeError, isAbort, request } from './api';
import { hrefOf, navigate, useDebounced } from './hooks';
import { SEARCH, type SearchQuery, type SearchQueryVariables } from './operations';
import { to, type Route } from './route';
import { plural } from './words';

/** How many of each kind are listed. */
const PER_KIND = 5;

interface Option {
  readonly id: string;
  readonly label: string;
  readonly detail?: string;
  readonly route: Route;
}

interface Group {
  readonly kind: string;
  readonly options: readonly Option[];
}

/** The answer as groups of options, with a "show all" option where a kind has more than are listed. */
function groupsOf(data: SearchQuery, text: string): Group[] {
  const more = (total: number, shown: number, noun: string, route: Route | null): Option[] =>
    route && total > shown
      ? [{ id: `all-${noun}`, label: `Show all ${plural(total, noun)} matching “${text}”`, route }]
      : [];
  const groups: Group[] = [
    {
      kind: 'Tools',
      options: [
        ...data.tools.edges.map(({ node }) => ({ id: `tool-${node.id}`, label: node.name, route: to.tool(node.name) })),
        ...more(data.tools.totalCount, data.tools.edges.length, 'tool', { view: 'tools', q: text, order: 'attention' }),
      ],
    },
    {
      kind: 'Projects',
      options: [
        ...data.projects.edges.map(({ node }) => ({
          id: `project-${node.id}`,
          label: node.name,
          route: to.project(node.name),
        })),
        ...more(data.projects.totalCount, data.projects.edges.length, 'project', {
          view: 'projects',
          q: text,
          order: 'attention',
        }),
      ],
    },
    {
      kind: 'Resources',
      options: [
        ...data.resources.edges.map(({ node }) => ({
          id: `resource-${node.id}`,
          label: node.name,
          detail: node.type.name,
          route: to.resource(node.name),
        })),
        ...more(data.resources.totalCount, data.resources.edges.length, 'resource', { view: 'resources', q: text }),
      ],
    },
    {
      kind: 'Resource types',
      options: data.resourceTypes.edges.map(({ node }) => ({
        id: `type-${node.id}`,
        label: node.name,
        route: to.type(node.name),
      })),
    },
  ];
  return groups.filter((g) => g.options.length > 0);
}

/** Whether a key press came from a place that takes text. */
function typing(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return (
    !!element &&
    (element.isContentEditable ||
      ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName) ||
      !!element.closest('[role="dialog"][aria-modal="true"]'))
  );
}

export function Search() {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [answer, setAnswer] = useState<{ text: string; groups: Group[] | null; error: string | null } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const settled = useDebounced(text.trim(), 180);

  // "/" focuses the box from anywhere on the page that does not take text.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    if (settled === '') {
      setAnswer(null);
      return;
    }
    const controller = new AbortController();
    request<SearchQuery, SearchQueryVariables>(
      SEARCH,
      { text: settled, first: PER_KIND },
      { signal: controller.signal },
    ).then(
      (data) => {
        setAnswer({ text: settled, groups: groupsOf(data, settled), error: null });
        setActive(0);
      },
      (error: unknown) => {
        if (!isAbort(error)) setAnswer({ text: settled, groups: null, error: describeError(error) });
      },
    );
    return () => controller.abort();
  }, [settled]);

  const options = useMemo(() => answer?.groups?.flatMap((g) => g.options) ?? [], [answer]);
  const showing = open && text.trim() !== '';
  const activeOption = showing ? options[Math.min(active, options.length - 1)] : undefined;

  const choose = (option: Option) => {
    setOpen(false);
    setText('');
    input.current?.blur();
    navigate(option.route);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        setOpen(true);
        setActive((a) => (options.length === 0 ? 0 : (a + 1) % options.length));
        break;
      case 'ArrowUp':
        event.preventDefault();
        setOpen(true);
        setActive((a) => (options.length === 0 ? 0 : (a - 1 + options.length) % options.length));
        break;
      case 'Enter':
        event.preventDefault();
        if (activeOption) choose(activeOption);
        break;
      case 'Escape':
        if (showing) {
          event.preventDefault();
          setOpen(false);
        } else if (text) {
          setText('');
        } else {
          input.current?.blur();
        }
        break;
    }
  };

  const pending = text.trim() !== '' && answer?.text !== text.trim();
  return (
    <div className="search" role="search">
      <label htmlFor={`${listId}-input`} className="visually-hidden">
        Search tools, projects, resources and types
      </label>
      <input
        id={`${listId}-input`}
        ref={input}
        type="search"
        role="combobox"
        aria-expanded={showing}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeOption ? `${listId}-${activeOption.id}` : undefined}
        aria-keyshortcuts="/"
        placeholder="Search  ( / )"
        autoComplete="off"
        spellCheck={false}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {showing && (
        <div className="search-results" id={listId} role="listbox" aria-label="Search results">
          {pending && !answer?.groups && (
            <div className="search-note" role="presentation">
              Searching…
            </div>
          )}
          {answer?.error && (
            <div className="search-note error" role="presentation">
              {answer.error}
            </div>
          )}
          {answer?.groups?.length === 0 && !pending && (
            <div className="search-note" role="presentation">
              Nothing is named like “{answer.text}”.
            </div>
          )}
          {answer?.groups?.map((group) => (
            <div key={group.kind} role="group" aria-labelledby={`${listId}-${group.kind}`}>
              <div className="search-kind" id={`${listId}-${group.kind}`} role="presentation">
                {group.kind}
              </div>
              {group.options.map((option) => (
                <a
                  key={option.id}
                  id={`${listId}-${option.id}`}
                  role="option"
                  aria-selected={option === activeOption}
                  className={`search-option${option === activeOption ? ' active' : ''}`}
                  href={hrefOf(option.route)}
                  tabIndex={-1}
                  // Chosen on mousedown, before the box loses the focus and closes the list.
                  onMouseDown={(e) => {
                    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
                    e.preventDefault();
                    choose(option);
                  }}
                  onClick={(e) => {
                    if (!e.metaKey && !e.ctrlKey && !e.shiftKey) e.preventDefault();
                  }}
                >
                  <span>{option.label}</span>
                  {option.detail && <span className="muted"> · {option.detail}</span>}
                </a>
              ))}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
