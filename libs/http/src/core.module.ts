import { DynamicModule, Global, Module } from '@nestjs/common';
import { Config } from '@graph-history/config';
import { ApiKeyRepository, Db } from '@graph-history/db';
import { AuthService } from './auth.service';

export const CONFIG = Symbol('CONFIG');
export const DB = Symbol('DB');

/** Config, the Kysely instance and key authentication, shared by both apps. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: Config, db: Db): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: DB, useValue: db },
        { provide: ApiKeyRepository, useFactory: (d: Db) => new ApiKeyRepository(d), inject: [DB] },
        {
          provide: AuthService,
          useFactory: (k: ApiKeyRepository) => new AuthService(k),
          inject: [ApiKeyRepository],
        },
      ],
      exports: [CONFIG, DB, ApiKeyRepository, AuthService],
    };
  }
}
