import type { RequestOptions } from '../http/transport.js';
import type { List } from '../types/resources.js';

/** Fetches one page of a list by its path (`/api/v1/…?…`). */
export type PageFetcher<T> = (path: string, options: RequestOptions) => Promise<List<T>>;

export interface PageListOptions<T> {
  /** Path and query of the first page. */
  path: string;
  fetchPage: PageFetcher<T>;
  /** True when the first page was asked with `ending_before`: later pages walk backward. */
  backward: boolean;
  /** Query parameters added to every later page, beyond what the list `url` pins. */
  pin?: (first: List<T>) => Record<string, string>;
  signal?: AbortSignal;
}

/**
 * A list call. `await` it for the first page (a list envelope); iterate it with `for await` for
 * every item across pages, each later page fetched from the list's `url` (which pins the moment
 * of the first page) with the cursor of the page before. Walking backward (`endingBefore`)
 * yields items in reverse, each further from the cursor than the one before.
 */
export class PageList<T extends { id: string }> implements PromiseLike<List<T>>, AsyncIterable<T> {
  private first: Promise<List<T>> | null = null;

  constructor(private readonly options: PageListOptions<T>) {}

  /** The first page. */
  firstPage(): Promise<List<T>> {
    this.first ??= this.options.fetchPage(this.options.path, { signal: this.options.signal });
    return this.first;
  }

  then<R1 = List<T>, R2 = never>(
    onFulfilled?: ((page: List<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  /** Every page, the first one first. */
  async *pages(): AsyncGenerator<List<T>, void, undefined> {
    const { backward, fetchPage, signal } = this.options;
    const first = await this.firstPage();
    yield first;
    const pinned = { ...this.options.pin?.(first) };
    let page = first;
    while (page.has_more && page.data.length > 0) {
      const edge = backward ? page.data[0]! : page.data[page.data.length - 1]!;
      const cursor: Record<string, string> = backward
        ? { ending_before: edge.id }
        : { starting_after: edge.id };
      page = await fetchPage(withQuery(page.url, { ...pinned, ...cursor }), { signal });
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) {
      if (this.options.backward)
        for (let i = page.data.length - 1; i >= 0; i--) yield page.data[i]!;
      else yield* page.data;
    }
  }

  /** Up to `limit` items across pages, in iteration order. */
  async toArray(options: { limit: number }): Promise<T[]> {
    const items: T[] = [];
    if (options.limit <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= options.limit) break;
    }
    return items;
  }
}

/** `url` with `params` set (replacing any cursor it had). */
function withQuery(url: string, params: Record<string, string>): string {
  const [path, query = ''] = url.split('?', 2) as [string, string?];
  const search = new URLSearchParams(query);
  search.delete('starting_after');
  search.delete('ending_before');
  for (const [name, value] of Object.entries(params)) search.set(name, value);
  return `${path}?${search.toString()}`;
}
