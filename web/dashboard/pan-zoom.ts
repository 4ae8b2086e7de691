/**
 * The arithmetic of panning and zooming a drawing: a view maps a point of the
 * drawing (x, y) to the screen as (k·x + dx, k·y + dy). The type graph uses
 * it with the wheel, the pointer, the keyboard and its buttons.
 *
 * No DOM here: the tests import this module.
 */

export interface View {
  readonly dx: number;
  readonly dy: number;
  readonly k: number;
}

export interface Size {
  readonly width: number;
  readonly height: number;
}

/** The zoom's bounds: from a tenth of the size (a large hierarchy, whole) to three times it. */
export const ZOOM = { min: 0.1, max: 3 } as const;

export const IDENTITY: View = { dx: 0, dy: 0, k: 1 };

const clamp = (k: number) => Math.min(ZOOM.max, Math.max(ZOOM.min, k));

/** Zooms by `factor`, keeping the screen point (px, py) over the same point of the drawing. */
export function zoomAt(view: View, factor: number, px: number, py: number): View {
  const k = clamp(view.k * factor);
  const ratio = k / view.k;
  return { k, dx: px - (px - view.dx) * ratio, dy: py - (py - view.dy) * ratio };
}

/** Moves the drawing by (x, y) screen pixels. */
export function panBy(view: View, x: number, y: number): View {
  return { ...view, dx: view.dx + x, dy: view.dy + y };
}

/** The view that shows the whole drawing in the viewport, centred, never larger than its own size. */
export function fitView(drawing: Size, viewport: Size, margin = 12): View {
  const k = clamp(
    Math.min(1, (viewport.width - 2 * margin) / drawing.width, (viewport.height - 2 * margin) / drawing.height),
  );
  return { k, dx: (viewport.width - drawing.width * k) / 2, dy: (viewport.height - drawing.height * k) / 2 };
}

/** The view at zoom `k` with the drawing's point (x, y) in the middle of the viewport. */
export function centreOn(x: number, y: number, viewport: Size, k: number): View {
  const scale = clamp(k);
  return { k: scale, dx: viewport.width / 2 - x * scale, dy: viewport.height / 2 - y * scale };
}

/** The SVG transform of a view. */
export function transformOf(view: View): string {
  return `translate(${round(view.dx)} ${round(view.dy)}) scale(${round(view.k, 4)})`;
}

function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
