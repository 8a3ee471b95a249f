import { idKeyGeneration, openBlock, sealBlocks } from './id-key';

/**
 * Public ids are opaque strings that decode to internal keys: `node_…` and `evt_…` carry the
 * graph's internal id and the node number / event sequence, so a lookup needs no id index and an
 * id of another graph is recognised without a query. The two numbers are sealed in one AES block
 * (id-key.ts), so an id reveals neither, nor any order: `<prefix>_<22 base64url characters>`.
 * Ids of the older, readable form (`node_3fwj0001`: graph 20,611, node 1) are still accepted.
 */
export type IdPrefix = 'node' | 'evt' | 'ntc';

/**
 * The block: a tag byte per prefix, the graph id in bytes 1-7, a zero byte, the number in bytes
 * 9-15 (each below 2^53, so the top 3 bits of bytes 1 and 9 are zero: 22 bits an id of the wrong
 * prefix, or any other string, has one chance in four million to pass).
 */
const TAG: Record<IdPrefix, number> = { node: 0x4e, evt: 0x45, ntc: 0x54 };
const SEALED_CHARS = 22;
// 16 bytes in base64url: the last character carries 2 bits, so only 4 of them are canonical
const SEALED = /^[A-Za-z0-9_-]{21}[AQgw]$/;
const TWO_32 = 2 ** 32;
const block = Buffer.alloc(16);

/** Writes the block of (prefix, graphId, n) into `into` at `at`. */
function writeBlock(into: Buffer, at: number, prefix: IdPrefix, graphId: number, n: number): void {
  into[at] = TAG[prefix];
  into.writeUIntBE(Math.floor(graphId / TWO_32), at + 1, 3);
  into.writeUInt32BE(graphId >>> 0, at + 4);
  into[at + 8] = 0;
  into.writeUIntBE(Math.floor(n / TWO_32), at + 9, 3);
  into.writeUInt32BE(n >>> 0, at + 12);
}

export function encodeId(prefix: IdPrefix, graphId: number, n: number): string {
  writeBlock(block, 0, prefix, graphId, n);
  return `${prefix}_${sealBlocks(block).toString('base64url')}`;
}

/**
 * The ids of many numbers of one graph, as encodeId gives them, sealed in one AES call (a page
 * of 1,000 events would otherwise cost 1,000 calls into OpenSSL).
 */
export function encodeIds(prefix: IdPrefix, graphId: number, ns: readonly number[]): string[] {
  const blocks = Buffer.allocUnsafe(16 * ns.length);
  ns.forEach((n, i) => writeBlock(blocks, 16 * i, prefix, graphId, n));
  const sealed = sealBlocks(blocks);
  // base64 once for all: each block followed by two zero bytes starts at a multiple of 3 bytes
  // (24 characters), and its first 22 characters are those of the block alone
  const spaced = Buffer.alloc(18 * ns.length);
  for (let i = 0; i < ns.length; i++) sealed.copy(spaced, 18 * i, 16 * i, 16 * i + 16);
  const text = spaced.toString('base64url');
  const head = `${prefix}_`;
  return ns.map((_, i) => head + text.slice(24 * i, 24 * i + SEALED_CHARS));
}

export interface DecodedId {
  graphId: number;
  n: number;
}

/**
 * Sealed ids opened last, by id (prefix included): a read API process opens the same few ids over
 * and over (a node polled, the `as_of` of a client's pages), each an AES block otherwise. Emptied
 * when full, and when the id key changes.
 */
const opened = { generation: -1, ids: new Map<string, DecodedId | null>() };
const OPENED_KEPT = 65_536;

/** The graph id and number of a node or event id, of either form; null when it is none. */
export function decodeId(prefix: IdPrefix, id: string): DecodedId | null {
  if (typeof id !== 'string' || id.length > 40 || !id.startsWith(`${prefix}_`)) return null;
  const body = id.slice(prefix.length + 1);
  if (body.length !== SEALED_CHARS) return prefix === 'ntc' ? null : decodeReadableId(prefix, body);
  if (opened.generation !== idKeyGeneration() || opened.ids.size >= OPENED_KEPT) {
    opened.generation = idKeyGeneration();
    opened.ids = new Map();
  }
  let decoded = opened.ids.get(id);
  if (decoded === undefined) opened.ids.set(id, (decoded = unseal(prefix, body)));
  // a copy: callers may keep or change what they get
  return decoded && { graphId: decoded.graphId, n: decoded.n };
}

/** `id` (decoded as `d`) in the sealed form: itself, or an id of the readable form sealed. */
export const sealedIdOf = (prefix: IdPrefix, id: string, d: DecodedId): string =>
  id.length === prefix.length + 1 + SEALED_CHARS ? id : encodeId(prefix, d.graphId, d.n);

function unseal(prefix: IdPrefix, body: string): DecodedId | null {
  if (!SEALED.test(body)) return null;
  const b = openBlock(Buffer.from(body, 'base64url'));
  if (b[0] !== TAG[prefix] || b[8] !== 0 || b[1]! > 0x1f || b[9]! > 0x1f) return null;
  const graphId = b.readUIntBE(1, 3) * TWO_32 + b.readUInt32BE(4);
  const n = b.readUIntBE(9, 3) * TWO_32 + b.readUInt32BE(12);
  return graphId < 1 || n < 1 ? null : { graphId, n };
}

const B36 = /^[0-9a-z]+$/;

/** The older form: base-36 length of the graph part, the graph id, the number (4+ digits). */
export function encodeReadableId(prefix: IdPrefix, graphId: number, n: number): string {
  const g = graphId.toString(36);
  return `${prefix}_${g.length.toString(36)}${g}${n.toString(36).padStart(4, '0')}`;
}

function decodeReadableId(prefix: IdPrefix, body: string): DecodedId | null {
  if (!B36.test(body)) return null;
  const glen = parseInt(body[0]!, 36);
  const g = body.slice(1, 1 + glen);
  const n = body.slice(1 + glen);
  if (g.length !== glen || glen === 0 || n.length < 4) return null;
  if (n.length > 4 && n.startsWith('0')) return null;
  const graphId = parseInt(g, 36);
  const num = parseInt(n, 36);
  if (!Number.isSafeInteger(graphId) || !Number.isSafeInteger(num) || graphId < 1 || num < 1)
    return null;
  if (encodeReadableId(prefix, graphId, num) !== `${prefix}_${body}`) return null;
  return { graphId, n: num };
}

/**
 * The node ids of the graph encoded last, by node number: the reducer and the read API's bodies
 * encode the same few ids of one graph over and over (parent, root, session, blocked on).
 */
const nodeIds = { graphId: 0, generation: -1, ids: new Map<number, string>() };
const NODE_IDS_KEPT = 100_000;

export function nodeId(graphId: number, nodeNo: number): string {
  if (
    nodeIds.graphId !== graphId ||
    nodeIds.generation !== idKeyGeneration() ||
    nodeIds.ids.size >= NODE_IDS_KEPT
  ) {
    nodeIds.graphId = graphId;
    nodeIds.generation = idKeyGeneration();
    nodeIds.ids = new Map();
  }
  let id = nodeIds.ids.get(nodeNo);
  if (id === undefined) {
    nodeIds.ids.set(nodeNo, (id = encodeId('node', graphId, nodeNo)));
    rememberNodeNo(id, nodeNo);
  }
  return id;
}
export const eventId = (graphId: number, seq: number): string => encodeId('evt', graphId, seq);

/** A notice's id seals its account and number (notices are the account's, not a graph's). */
export const noticeId = (accountId: number, noticeNo: number): string =>
  encodeId('ntc', accountId, noticeNo);

/** The account and number of a notice id; null when it is none. */
export function decodeNoticeId(id: string): { accountId: number; noticeNo: number } | null {
  const d = decodeId('ntc', id);
  return d && { accountId: d.graphId, noticeNo: d.n };
}

/** Event ids sealed ahead (see eventIdInOrder). */
const ahead = { graphId: 0, generation: -1, from: 0, ids: [] as string[] };
const SEALED_AHEAD = 64;

/**
 * eventId for a caller that asks for one graph's seqs in order (the apply, event by event): the
 * next SEALED_AHEAD ids are sealed in one AES call and kept, so most calls are an array read.
 */
export function eventIdInOrder(graphId: number, seq: number): string {
  const i = seq - ahead.from;
  if (
    ahead.graphId === graphId &&
    ahead.generation === idKeyGeneration() &&
    i >= 0 &&
    i < ahead.ids.length
  )
    return ahead.ids[i]!;
  ahead.graphId = graphId;
  ahead.generation = idKeyGeneration();
  ahead.from = seq;
  ahead.ids = encodeIds(
    'evt',
    graphId,
    Array.from({ length: SEALED_AHEAD }, (_, k) => seq + k),
  );
  return ahead.ids[0]!;
}

export const GRAPH_KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const isGraphKey = (key: string): boolean => GRAPH_KEY_PATTERN.test(key);

export const graphPublicId = (graphKey: string): string => `gph_${graphKey}`;

/** `gph_<key>` -> key, or null when the id is not a graph id. */
export function graphKeyFromId(id: string): string | null {
  if (typeof id !== 'string' || !id.startsWith('gph_')) return null;
  const key = id.slice(4);
  return isGraphKey(key) ? key : null;
}

/**
 * Node numbers of the node ids decoded or encoded last (a node's record is rebuilt from its
 * stored JSON, ids and all, on every read that expands objects: a lookup here instead of AES).
 */
const nodeNos = new Map<string, number>();

/** The node number of a node id this code encoded (stored JSON), of either form. */
export function nodeNoOf(id: string): number {
  let no = nodeNos.get(id);
  if (no === undefined) {
    const decoded = decodeId('node', id);
    if (decoded === null) throw new Error(`Not a node id: ${id.slice(0, 50)}`);
    rememberNodeNo(id, (no = decoded.n));
  }
  return no;
}

function rememberNodeNo(id: string, no: number): void {
  if (nodeNos.size >= NODE_IDS_KEPT) nodeNos.clear();
  nodeNos.set(id, no);
}
