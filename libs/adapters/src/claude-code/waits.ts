import type { Emitter } from './emitter';

/** Opens an explicit wait of `ref` on `target` unless one is open or it would be meaningless. */
export function openWait(em: Emitter, ref: string, target: string, reason: string): void {
  const node = em.node(ref);
  if (!node || target === ref || !em.live(target) || node.waitsOn.includes(target)) return;
  if (em.send('wait.started', ref, { on: [target], reason })) node.waitsOn.push(target);
}

export function closeWait(em: Emitter, ref: string, target: string): void {
  const node = em.node(ref);
  if (!node || !node.waitsOn.includes(target)) return;
  node.waitsOn = node.waitsOn.filter((t) => t !== target);
  if (em.live(target)) em.send('wait.ended', ref, { on: [target] });
}
