export * from './jsonb-order';
export * from './node-json';
export * from './event-json';
