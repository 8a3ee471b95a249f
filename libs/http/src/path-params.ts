import type { FastifyInstance } from 'fastify';

/**
 * The app's route templates (`/api/v1/graphs/:graph_id`), gathered as routes are registered, so an
 * error the router raises before any handler (a broken percent-encoding, an over-long segment) can
 * name the path parameter at fault.
 */
export class PathParams {
  private readonly templates: string[][] = [];

  watch(app: Pick<FastifyInstance, 'addHook'>): void {
    app.addHook('onRoute', (route) => {
      this.templates.push(route.url.split('/'));
    });
  }

  /** The name of the first path parameter whose raw segment is `bad`, or null. */
  paramAt(url: string, bad: (segment: string) => boolean): string | null {
    const segments = url.split('?')[0]!.split('/');
    for (const template of this.templates) {
      if (template.length !== segments.length) continue;
      let named: string | null = null;
      const fits = template.every((part, i) => {
        const segment = segments[i]!;
        if (!part.startsWith(':')) return part === segment;
        if (named === null && bad(segment)) named = part.slice(1);
        return true;
      });
      if (fits && named !== null) return named;
    }
    return null;
  }
}

export const badPercentEncoding = (segment: string): boolean => {
  try {
    decodeURIComponent(segment);
    return false;
  } catch {
    return true;
  }
};
