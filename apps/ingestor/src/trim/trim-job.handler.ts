import { Injectable } from '@nestjs/common';
import { Trimmer } from './trimmer';

/** Body of a `trim` job: delete what retention cut off. */
@Injectable()
export class TrimJobHandler {
  constructor(private readonly trimmer: Trimmer) {}

  handle(graphId: number): Promise<number> {
    return this.trimmer.trim(graphId);
  }
}
