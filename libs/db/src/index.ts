export * from './schema';
export * from './connection';
export * from './migrate';
export * from './repositories/account.repository';
export * from './repositories/api-key.repository';
