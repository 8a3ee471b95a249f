import { useEffect, useState } from 'preact/hooks';
import type { ShareStore } from '../live/share-store';

/** Re-renders whenever the store changes. */
export function useStore(store: ShareStore): number {
  const [version, setVersion] = useState(0);
  useEffect(() => store.subscribe(() => setVersion((v) => v + 1)), [store]);
  return version;
}
