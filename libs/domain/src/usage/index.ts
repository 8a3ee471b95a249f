export * from './usage';
export * from './model-prices';
export * from './add-usage';
export * from './usage-json';
