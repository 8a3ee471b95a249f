export * from './jsonb-order';
export * from './node-json';
export * from './event-json';
export * from './node-record-json';
export * from './listed-event-json';
export * from './encoded-node';
export * from './change-json';
export * from './sealed-ids';
