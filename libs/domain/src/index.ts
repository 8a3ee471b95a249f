export * from './ids';
export * from './node';
export * from './graph-counts';
export * from './event';
export * from './records';
export * from './graph-state';
export * from './watch-event';
export * from './api-keys';
