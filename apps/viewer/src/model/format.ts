import type { Node } from '../api/types';

/** A node's name: a session's title, an agent's purpose or type, else its provider ref. */
export const nodeName = (
  n: Pick<Node, 'kind' | 'title' | 'purpose' | 'agent_type' | 'provider_ref'>,
): string => (n.kind === 'session' ? n.title : (n.purpose ?? n.agent_type)) ?? n.provider_ref;

export const stateLabel = (s: string): string => s.replace('_', ' ');

const pad = (n: number) => String(n).padStart(2, '0');

/** `HH:MM:SS` in local time. */
export function clock(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** `YYYY-MM-DD HH:MM:SS` in local time. */
export function dateTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${clock(ms)}`;
}

export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

export const count = (n: number): string => n.toLocaleString('en-US');

/** A field value of a change, short. */
export function valueText(v: unknown): string {
  if (v === null || v === undefined) return '∅';
  if (typeof v === 'string') return v.length > 80 ? `${v.slice(0, 79)}…` : v;
  const s = JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}

export const plural = (n: number, word: string): string => (n === 1 ? word : `${word}s`);

/** A share with no event for this long is quiet: followed, but not shown as active now. */
const QUIET_AFTER_MS = 5 * 60_000;

/** When a quiet share was last active (its newest event), else null (active, or no event). */
export const quietSince = (
  lastEvent: number | null | undefined,
  now = Date.now(),
): number | null => (lastEvent != null && now - lastEvent > QUIET_AFTER_MS ? lastEvent : null);

/** A past time, short: the clock today, else the date and time. */
export function when(ms: number, now = Date.now()): string {
  return new Date(ms).toDateString() === new Date(now).toDateString() ? clock(ms) : dateTime(ms);
}

/** Token counts, short: 950, 12.3k, 4.1M. */
export function tokens(n: number): string {
  if (n < 1_000) return String(n);
  if (n < 1_000_000) return `${(n / 1_000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 1 : 0)}M`;
}

/** An estimated cost in USD: `$0.42`, `<$0.01`; `—` when no model of it has a price. */
export function usd(cost: number | null): string {
  if (cost === null) return '—';
  if (cost > 0 && cost < 0.01) return '<$0.01';
  return `$${cost.toFixed(2)}`;
}
