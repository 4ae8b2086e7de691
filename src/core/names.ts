/**
 * Name rules beyond the grammar: names that differ only by case are the same
 * name for uniqueness (lookups stay exact), and a name that finds nothing gets
 * the closest existing names as suggestions.
 */

/** The key under which names are unique: the name with ASCII letters lowercased (the grammar allows only ASCII). */
export function nameKey(name: string): string {
  return name.toLowerCase();
}

/** Levenshtein distance, ignoring case. */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[y.length];
}

/**
 * Rule: up to `max` existing names close to `ref`: the same name in another
 * case first, then by edit distance, within a third of the longer name (at
 * least 2 edits), or sharing its last '/'-segment; ties in name order.
 */
export function closestNames(ref: string, candidates: Iterable<string>, max = 3): string[] {
  const lastSegment = (name: string) => name.slice(name.lastIndexOf('/') + 1).toLowerCase();
  const scored: { name: string; score: number }[] = [];
  for (const name of new Set(candidates)) {
    if (name === ref) continue;
    const distance = editDistance(ref, name);
    const limit = Math.max(2, Math.floor(Math.max(ref.length, name.length) / 3));
    const sameSegment = lastSegment(name) === lastSegment(ref);
    if (distance > limit && !sameSegment) continue;
    scored.push({ name, score: distance === 0 ? -1 : distance });
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, max).map((s) => s.name);
}
