export { ActiveWindow, type WindowNode } from './active-window';
