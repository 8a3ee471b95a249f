export * from './schema';
export * from './connection';
export * from './migrate';
