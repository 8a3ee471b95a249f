import { useEffect, useState } from 'preact/hooks';
import type { RefObject } from 'preact';

/** Rows drawn beyond the visible ones, so fast scrolling shows no gaps. */
const OVERSCAN = 8;

export interface Viewport {
  first: number;
  last: number;
  height: number;
  scrollTop: number;
}

/**
 * Which rows of a scrolling list are visible: only those are rendered, so a list of any length
 * costs the same to draw.
 */
export function useViewport(
  ref: RefObject<HTMLElement>,
  rowCount: number,
  rowHeight: number,
): Viewport {
  const [box, setBox] = useState({ scrollTop: 0, height: 600 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => setBox({ scrollTop: el.scrollTop, height: el.clientHeight });
    update();
    el.addEventListener('scroll', update, { passive: true });
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => {
      el.removeEventListener('scroll', update);
      ro.disconnect();
    };
  }, [ref.current]);
  const first = Math.max(0, Math.floor(box.scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(rowCount, Math.ceil((box.scrollTop + box.height) / rowHeight) + OVERSCAN);
  return { first, last, height: box.height, scrollTop: box.scrollTop };
}

/** Scrolls a row into view within its list (only when it is outside it). */
export function revealRow(
  el: HTMLElement | null,
  index: number,
  rowHeight: number,
  header = 0,
): void {
  if (!el) return;
  const top = index * rowHeight;
  if (top < el.scrollTop) el.scrollTop = top;
  else if (top + rowHeight > el.scrollTop + el.clientHeight - header)
    el.scrollTop = top + rowHeight - el.clientHeight + header;
}
