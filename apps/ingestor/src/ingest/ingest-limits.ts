/** ingest.md: a batch holds 1 to 1,000 events in a body of at most 4 MiB. */
export const MAX_EVENTS_PER_BATCH = 1_000;
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
