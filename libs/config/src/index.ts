export * from './config';
export * from './node-flags';
