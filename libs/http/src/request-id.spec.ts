import { newRequestId } from './request-id';

describe('newRequestId', () => {
  it('gives distinct req_ ids across pool refills', () => {
    const ids = new Set(Array.from({ length: 2_000 }, () => newRequestId()));
    expect(ids.size).toBe(2_000);
    for (const id of ids) expect(id).toMatch(/^req_[0-9A-Za-z]{16}$/);
  });
});
