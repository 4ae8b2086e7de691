/** Who is looking and what they may change: `viewer`. */

/** Who the credential is (null: none), and its groups. */
export const VIEWER = /* GraphQL */ `
  query Viewer {
    viewer {
      principal
      groups
    }
  }
`;

/** At most this many answers in one request: the server allows 15 aliases a document. */
export const MAX_CAN_PER_REQUEST = 15;

/**
 * Whether the viewer may run each operation on each ref:
 * `c0: can(operation: $o0, ref: $r0)`, and so on for n pairs (what a page's
 * buttons ask, batched). Made at run time for n pairs, so codegen cannot type
 * it: ViewerCanData is its type.
 */
export function viewerCanDocument(n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > MAX_CAN_PER_REQUEST)
    throw new RangeError(`between 1 and ${MAX_CAN_PER_REQUEST} answers a request, not ${n}`);
  const indexes = [...Array(n).keys()];
  return `query ViewerCan(${indexes.map((i) => `$o${i}: String!, $r${i}: String!`).join(', ')}) {\n  viewer {\n${indexes
    .map((i) => `    c${i}: can(operation: $o${i}, ref: $r${i})`)
    .join('\n')}\n  }\n}`;
}

/** What viewerCanDocument(n) answers: `viewer.c0` … `viewer.c{n-1}`. */
export interface ViewerCanData {
  readonly viewer: Readonly<Record<string, boolean>>;
}
