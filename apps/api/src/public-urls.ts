import { Config } from '@graph-history/config';

/** Where clients reach this deployment: PUBLIC_URL, else the local port. Used for viewer and doc links. */
export const publicBaseUrl = (config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string =>
  (config.PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/$/, '');
