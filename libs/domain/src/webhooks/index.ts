export * from './webhook-secret';
export * from './webhook-signature';
export * from './public-address';
