import { eventKey } from '../event-key';

/**
 * Keys of the facts both the transcript and Claude Code's hooks report: whichever path sends a
 * fact first stores it, and the other's copy is a duplicate (ingest.md). A node is created once,
 * an agent ends once, a session is titled once.
 */
export const createdKey = (ref: string, kind: 'started' | 'spawned'): string => eventKey(ref, kind);

export const endedKey = (ref: string): string => eventKey(ref, 'ended');

export const titleKey = (sessionRef: string): string => eventKey(sessionRef, 'title');

/** A session set working by the user's prompt `promptId` (one prompt starts one turn). */
export const turnStartKey = (sessionRef: string, promptId: string): string =>
  eventKey(sessionRef, 'turn', promptId, 'working');
