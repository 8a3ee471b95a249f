/** The METRICS_TOKEN the test services run with, and the header that opens their /metrics. */
export const TEST_METRICS_TOKEN = 'test-metrics-token-0123456789';
export const metricsAuth = { authorization: `Bearer ${TEST_METRICS_TOKEN}` };
