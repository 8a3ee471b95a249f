import { ApiHarness } from '../../api/support/api-harness';
import { endpointFixture } from '../../ingestor/support/endpoint-fixture';

export type AppName = 'api' | 'ingestor';

export interface RunningApp {
  baseUrl: string;
  /** A secret key's Authorization header. */
  auth: string;
  stop(): Promise<void>;
}

/** The read API or the ingestor on a fresh database, listening on 127.0.0.1, with `env` set. */
export async function startApp(app: AppName, env: Record<string, string>): Promise<RunningApp> {
  if (app === 'api') {
    const h = await ApiHarness.start(env);
    return { baseUrl: h.baseUrl, auth: `Bearer ${h.secret}`, stop: () => h.stop() };
  }
  const f = await endpointFixture(false, env);
  return { baseUrl: f.app.baseUrl, auth: f.owner.auth, stop: () => f.close() };
}
