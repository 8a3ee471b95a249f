export * from './simulate';
export { GraphSimulation } from './graph-simulation';
export { Random } from './random';
