/**
 * Session settings for the connections of the graph writers (the ingestor's stores, applies and
 * trims). Each of their statements works on the rows of ONE graph (`graph_id = $n`), so they are
 * planned generically. A custom plan uses the statistics of the graph id it is given, and those
 * put a graph created since the last ANALYZE at one row: the planner then walks that graph's whole
 * range of a narrower index once per asked row (event keys by seq instead of by key, node
 * versions and waits outside in), and store-to-readable grows with the graph's history.
 */
export const WRITER_SESSION_OPTIONS = '-c plan_cache_mode=force_generic_plan';
