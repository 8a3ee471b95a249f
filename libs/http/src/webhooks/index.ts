export * from './webhook-url';
export * from './post-webhook';
export * from './webhook-sender';
