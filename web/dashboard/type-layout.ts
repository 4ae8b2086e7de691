/**
 * A layered drawing of the resource-type hierarchy: a type's layer is its
 * depth (0 without parents, else one more than its deepest parent), so every
 * parent is drawn above its sub-types. A type may have several parents (the
 * hierarchy is a DAG). Within a layer, types are ordered by where their
 * parents (then their sub-types) are, to keep lines short and crossings few,
 * and by name when that does not decide.
 *
 * No DOM here: the tests import this module.
 */

export interface TypeNodeInput {
  readonly name: string;
  /** Direct parents, by name; names not among the types drawn are left out. */
  readonly parents: readonly string[];
}

export interface PlacedType {
  readonly name: string;
  readonly depth: number;
  /** Top-left corner and size of the node's box. */
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly parents: readonly string[];
}

export interface TypeEdge {
  /** The sub-type (below) and its parent (above). */
  readonly child: string;
  readonly parent: string;
  /** An SVG path from the top of the child's box to the bottom of the parent's. */
  readonly path: string;
}

export interface TypeLayout {
  readonly nodes: readonly PlacedType[];
  readonly edges: readonly TypeEdge[];
  readonly width: number;
  readonly height: number;
}

export const LAYOUT = {
  nodeHeight: 30,
  layerGap: 70,
  nodeGap: 18,
  margin: 16,
  /** An estimate of one character's width at the graph's font size (13px). */
  charWidth: 7.4,
  minWidth: 72,
} as const;

/** The depth of every type: 0 without (known) parents, else 1 + the deepest parent's. A cycle, which the API refuses, is cut. */
export function depths(types: readonly TypeNodeInput[]): Map<string, number> {
  const byName = new Map(types.map((t) => [t.name, t]));
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const visit = (name: string): number => {
    const known = depth.get(name);
    if (known !== undefined) return known;
    if (visiting.has(name)) return 0;
    visiting.add(name);
    const parents = byName.get(name)?.parents.filter((p) => byName.has(p)) ?? [];
    const d = parents.length === 0 ? 0 : 1 + Math.max(...parents.map(visit));
    visiting.delete(name);
    depth.set(name, d);
    return d;
  };
  for (const t of types) visit(t.name);
  return depth;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function layoutTypes(types: readonly TypeNodeInput[]): TypeLayout {
  const known = new Set(types.map((t) => t.name));
  const parentsOf = new Map(types.map((t) => [t.name, t.parents.filter((p) => known.has(p) && p !== t.name)]));
  const childrenOf = new Map<string, string[]>(types.map((t) => [t.name, []]));
  for (const [child, parents] of parentsOf) for (const p of parents) childrenOf.get(p)!.push(child);
  const depth = depths(types);
  const layerCount = types.length === 0 ? 0 : Math.max(...depth.values()) + 1;
  const layers: string[][] = Array.from({ length: layerCount }, () => []);
  for (const t of [...types].sort((a, b) => byName(a.name, b.name))) layers[depth.get(t.name)!].push(t.name);

  // Order within layers: a few sweeps by the mean position of the neighbours already placed.
  const position = new Map<string, number>();
  const place = (layer: string[]) => layer.forEach((name, i) => position.set(name, i / Math.max(1, layer.length)));
  layers.forEach(place);
  const sweep = (layer: string[], neighbours: (name: string) => readonly string[]) => {
    const key = new Map(
      layer.map((name) => {
        const ns = neighbours(name);
        return [name, ns.length === 0 ? position.get(name)! : ns.reduce((s, n) => s + position.get(n)!, 0) / ns.length];
      }),
    );
    layer.sort((a, b) => key.get(a)! - key.get(b)! || byName(a, b));
    place(layer);
  };
  for (let round = 0; round < 2; round++) {
    for (let d = 1; d < layerCount; d++) sweep(layers[d], (n) => parentsOf.get(n)!);
    for (let d = layerCount - 2; d >= 0; d--) sweep(layers[d], (n) => childrenOf.get(n)!);
  }
  for (let d = 1; d < layerCount; d++) sweep(layers[d], (n) => parentsOf.get(n)!);

  // Coordinates: each layer packed left to right and centred on the widest.
  const widthOf = (name: string) => Math.max(LAYOUT.minWidth, Math.round(name.length * LAYOUT.charWidth + 24));
  const layerWidth = (layer: string[]) =>
    layer.reduce((s, n) => s + widthOf(n), 0) + Math.max(0, layer.length - 1) * LAYOUT.nodeGap;
  const widest = Math.max(0, ...layers.map(layerWidth));
  const nodes: PlacedType[] = [];
  const placed = new Map<string, PlacedType>();
  layers.forEach((layer, d) => {
    let x = LAYOUT.margin + (widest - layerWidth(layer)) / 2;
    const y = LAYOUT.margin + d * (LAYOUT.nodeHeight + LAYOUT.layerGap);
    for (const name of layer) {
      const node: PlacedType = {
        name,
        depth: d,
        x: Math.round(x),
        y,
        width: widthOf(name),
        height: LAYOUT.nodeHeight,
        parents: parentsOf.get(name)!,
      };
      nodes.push(node);
      placed.set(name, node);
      x += node.width + LAYOUT.nodeGap;
    }
  });

  const edges: TypeEdge[] = [];
  for (const node of nodes) {
    for (const parentName of node.parents) {
      const parent = placed.get(parentName)!;
      const x1 = node.x + node.width / 2;
      const y1 = node.y;
      const x2 = parent.x + parent.width / 2;
      const y2 = parent.y + parent.height;
      const bend = (y1 - y2) / 2;
      edges.push({
        child: node.name,
        parent: parentName,
        path: `M${x1} ${y1} C${x1} ${y1 - bend} ${x2} ${y2 + bend} ${x2} ${y2}`,
      });
    }
  }
  return {
    nodes,
    edges,
    width: widest + 2 * LAYOUT.margin,
    height:
      layerCount === 0 ? 0 : 2 * LAYOUT.margin + layerCount * LAYOUT.nodeHeight + (layerCount - 1) * LAYOUT.layerGap,
  };
}

/** Every type reachable from `name` through `next` (parents: its ancestors; children: its descendants). */
export function reachable(name: string, next: (name: string) => readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...next(name)];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    stack.push(...next(n));
  }
  return seen;
}
