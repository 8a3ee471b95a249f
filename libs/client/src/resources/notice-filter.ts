import type { NoticeFilterParams } from '../types/params.js';

/** The filters as the API takes them: several types comma-separated. */
export const noticeFilterQuery = (p: NoticeFilterParams): { graph?: string; type?: string } => ({
  graph: p.graph,
  type: typeof p.type === 'string' || p.type === undefined ? p.type : p.type.join(','),
});
