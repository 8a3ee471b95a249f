export * from './notice-types';
export * from './notice-facts';
export * from './derive-notices';
export * from './notice-json';
