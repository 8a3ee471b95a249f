import { Rejection } from '../watch-event';

/** Thrown by `applyEvent` for an event the graph's state does not allow; the state is untouched. */
export class RejectedEventError extends Error {
  constructor(readonly rejection: Rejection) {
    super(rejection.message);
    this.name = 'RejectedEventError';
  }
}
