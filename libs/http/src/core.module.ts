import { DynamicModule, Global, Module } from '@nestjs/common';
import { Config } from '@graph-history/config';
import { ApiKeyRepository, Db, loadIdKey } from '@graph-history/db';
import { AuthService } from './auth.service';

export const CONFIG = Symbol('CONFIG');
export const DB = Symbol('DB');
/** Resolved once the id key is loaded (loadIdKey): before any id is encoded or decoded. */
export const ID_KEY_LOADED = Symbol('ID_KEY_LOADED');

/**
 * Config, the Kysely instance and key authentication, shared by both apps. Keys are looked up in
 * `keysDb` (the primary when `db` reads from replicas: a new key works at once everywhere). The
 * id key is loaded from there too, as the module starts.
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: Config, db: Db, keysDb: Db = db): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: DB, useValue: db },
        { provide: ID_KEY_LOADED, useFactory: () => loadIdKey(keysDb).then(() => true) },
        { provide: ApiKeyRepository, useValue: new ApiKeyRepository(keysDb) },
        {
          provide: AuthService,
          useFactory: (k: ApiKeyRepository) => new AuthService(k),
          inject: [ApiKeyRepository],
        },
      ],
      exports: [CONFIG, DB, ID_KEY_LOADED, ApiKeyRepository, AuthService],
    };
  }
}
