// The image's HEALTHCHECK: healthy when this container's API (PORT) or ingestor (INGEST_PORT)
// answers GET /readyz with 200.
const ports = [process.env.PORT || '3000', process.env.INGEST_PORT || '3001'];
const ready = (port) =>
  fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
    (r) => r.status === 200,
    () => false,
  );
Promise.all(ports.map(ready)).then((answers) => process.exit(answers.some(Boolean) ? 0 : 1));
