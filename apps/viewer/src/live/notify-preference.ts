/** Whether this browser tab shows browser notifications of new notices (the header's button). */
const KEY = 'graph-history:notify';

export const canNotify = (): boolean => typeof Notification !== 'undefined';

function stored(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** Allowed by the browser and not turned off by the person. */
export const notifying = (): boolean =>
  canNotify() && Notification.permission === 'granted' && stored() !== 'off';

export function setNotifying(on: boolean): void {
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off');
  } catch {
    // a browser that keeps nothing: the choice lasts as long as the page
  }
}
