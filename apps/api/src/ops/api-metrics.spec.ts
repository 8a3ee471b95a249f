import { ApiMetrics } from './api-metrics';

describe('ApiMetrics answered requests', () => {
  it('counts answers by status, added to the counter when scraped', async () => {
    const metrics = new ApiMetrics();
    for (const status of [200, 200, 304, 404]) metrics.answered(status);
    const first = await metrics.registry.metrics();
    expect(first).toContain('graph_history_api_requests_total{status="200"} 2');
    expect(first).toContain('graph_history_api_requests_total{status="304"} 1');
    expect(first).toContain('graph_history_api_requests_total{status="404"} 1');
    metrics.answered(200);
    const second = await metrics.registry.metrics();
    // a counter: what the first scrape added stays, the new answer adds to it
    expect(second).toContain('graph_history_api_requests_total{status="200"} 3');
    expect(second).toContain('graph_history_api_requests_total{status="404"} 1');
  });
});
