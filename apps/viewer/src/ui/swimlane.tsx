import { useEffect, useRef } from 'preact/hooks';
import type { NodeState } from '../api/types';
import type { Lane } from '../model/lanes';
import type { TreeRow } from '../model/node-tree';
import { clock, nodeName } from '../model/format';
import { useViewport } from './use-viewport';
import { isolated } from './user-text';

const LANE = 16;
/** A label cut with an ellipsis to fit `max` pixels (never squeezed). */
function fitText(g: CanvasRenderingContext2D, text: string, max: number): string {
  // no label of a lane shows more than 200 characters: longer ones are never measured whole
  const cut = (n: number) => isolated(n < text.length ? `${text.slice(0, n)}…` : text);
  if (text.length <= 200 && g.measureText(cut(text.length)).width <= max) return cut(text.length);
  let [lo, hi] = [1, Math.min(text.length - 1, 200)];
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (g.measureText(cut(mid)).width <= max) lo = mid;
    else hi = mid - 1;
  }
  return cut(lo);
}

/** Width of the lane labels: room for a node's name, at most a third of a narrow chart. */
const labelWidth = (chartWidth: number): number => Math.min(230, Math.round(chartWidth / 3));
const AXIS_H = 18;

export const STATE_COLOURS: Record<NodeState, string> = {
  working: '#2b8a3e',
  input_required: '#e67700',
  idle: '#4c6ef5',
  completed: '#adb5bd',
  failed: '#c92a2a',
  canceled: '#495057',
};

interface Props {
  rows: TreeRow[];
  lanes: Map<string, Lane>;
  start: number;
  end: number;
  /** Time of the moment shown; null when live. */
  moment: number | null;
  selectedId: string | null;
  onPick(nodeId: string, time: number): void;
}

/**
 * One lane per node in tree order, coloured by state over the retained history; waits are drawn
 * from the waiting lane to the lane waited on, spawns as ticks. Drawn on a canvas, lanes in view
 * only.
 */
export function Swimlane(p: Props) {
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const vp = useViewport(box, p.rows.length, LANE);
  const laneIndex = useRef(new Map<string, number>());

  useEffect(() => {
    laneIndex.current = new Map(p.rows.map((r, i) => [r.node.id, i]));
  }, [p.rows]);

  useEffect(() => {
    const c = canvas.current;
    const el = box.current;
    if (!c || !el) return;
    const dpr = window.devicePixelRatio || 1;
    const w = el.clientWidth;
    const h = el.clientHeight;
    c.width = w * dpr;
    c.height = h * dpr;
    c.style.width = `${w}px`;
    c.style.height = `${h}px`;
    const g = c.getContext('2d');
    if (!g) return;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    const span = Math.max(1, p.end - p.start);
    const LABEL_W = labelWidth(w);
    const plotW = Math.max(10, w - LABEL_W - 8);
    const x = (t: number) => LABEL_W + ((t - p.start) / span) * plotW;
    const top = vp.scrollTop;
    const y = (i: number) => AXIS_H + i * LANE - top;
    const first = Math.floor(top / LANE);
    const last = Math.min(p.rows.length, first + Math.ceil(h / LANE) + 1);

    g.font = '11px system-ui, sans-serif';
    g.textBaseline = 'middle';
    for (let i = first; i < last; i++) {
      const r = p.rows[i]!;
      const lane = p.lanes.get(r.node.id);
      const yy = y(i);
      if (r.node.id === p.selectedId) {
        g.fillStyle = '#e7f0ff';
        g.fillRect(0, yy, w, LANE);
      }
      g.fillStyle = '#212529';
      const indent = Math.min(r.node.depth, 12) * 8;
      g.fillText(fitText(g, nodeName(r.node), LABEL_W - 8 - indent), 4 + indent, yy + LANE / 2);
      if (!lane) continue;
      for (const s of lane.segments) {
        g.fillStyle = STATE_COLOURS[s.state];
        g.fillRect(x(s.from), yy + 3, Math.max(1, x(s.to) - x(s.from)), LANE - 6);
      }
      g.fillStyle = '#000';
      for (const t of lane.spawns) g.fillRect(x(t) - 0.5, yy + 1, 1.5, LANE - 2);
    }
    // waits: a line under the waiting lane, and a connector to the lane waited on
    g.lineWidth = 1.5;
    for (let i = first; i < last; i++) {
      const lane = p.lanes.get(p.rows[i]!.node.id);
      if (!lane) continue;
      for (const wt of lane.waits) {
        const yy = y(i);
        g.strokeStyle = '#862e9c';
        g.beginPath();
        g.moveTo(x(wt.from), yy + LANE - 2);
        g.lineTo(x(wt.to), yy + LANE - 2);
        g.stroke();
        const j = laneIndex.current.get(wt.onId);
        if (j === undefined) continue;
        g.setLineDash([3, 2]);
        g.beginPath();
        g.moveTo(x(wt.from), yy + LANE / 2);
        g.lineTo(x(wt.from), y(j) + LANE / 2);
        g.stroke();
        g.setLineDash([]);
        g.fillStyle = '#862e9c';
        g.beginPath();
        g.arc(x(wt.from), y(j) + LANE / 2, 2.5, 0, Math.PI * 2);
        g.fill();
      }
    }
    // axis
    g.fillStyle = '#fff';
    g.fillRect(0, 0, w, AXIS_H);
    g.fillStyle = '#495057';
    g.textBaseline = 'top';
    for (let k = 0; k <= 4; k++) {
      const t = p.start + (span * k) / 4;
      const tx = x(t);
      g.fillRect(tx, AXIS_H - 4, 1, 4);
      g.textAlign = k === 0 ? 'left' : k === 4 ? 'right' : 'center';
      g.fillText(clock(t), tx, 2);
    }
    g.textAlign = 'left';
    if (p.moment !== null) {
      g.fillStyle = '#d6336c';
      g.fillRect(x(p.moment) - 1, 0, 2, h);
    }
  });

  const pick = (e: MouseEvent) => {
    const el = box.current;
    if (!el) return;
    const rect = el.getBoundingClientRect();
    const i = Math.floor((e.clientY - rect.top - AXIS_H + el.scrollTop) / LANE);
    const r = p.rows[i];
    const LABEL_W = labelWidth(el.clientWidth);
    const plotW = Math.max(10, el.clientWidth - LABEL_W - 8);
    const t = p.start + ((e.clientX - rect.left - LABEL_W) / plotW) * (p.end - p.start);
    if (r) p.onPick(r.node.id, Math.max(p.start, Math.min(p.end, t)));
  };

  return (
    <section class="panel swimlane" aria-labelledby="lanes-title">
      <header class="panel-head">
        <h2 id="lanes-title">Where the time went</h2>
        <span class="legend" aria-hidden="true">
          {Object.entries(STATE_COLOURS).map(([s, c]) => (
            <span key={s}>
              <i style={{ background: c }} />
              {s.replace('_', ' ')}
            </span>
          ))}
          <span>
            <i class="wait-key" />
            waits on
          </span>
          <span>
            <i class="spawn-key" />
            spawn
          </span>
        </span>
      </header>
      <div class="lanes-box" ref={box} onClick={pick}>
        <div class="lanes-space" style={{ height: `${AXIS_H + p.rows.length * LANE}px` }}>
          <canvas
            ref={canvas}
            role="img"
            aria-label={`Swimlane chart: ${p.rows.length} lanes, one per node in tree order, from ${clock(p.start)} to ${clock(p.end)}. Click a lane to open its node.`}
          />
        </div>
      </div>
    </section>
  );
}
