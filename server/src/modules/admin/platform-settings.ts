import type { PlatformSettings } from '@riff/contract';
import type { Clock } from '../../platform/clock.js';
import type { Config } from '../../platform/config/config.js';
import type { DbScope } from '../../platform/db/transactions.js';

/** The settings themselves, without who changed them when. */
export type SettingsValues = Omit<PlatformSettings, 'updated_at' | 'updated_by'>;

/** The settings with their last change, as the admin area stores them. */
export interface StoredSettings {
  values: SettingsValues;
  updated_at: Date | null;
  updated_by: string | null;
}

/**
 * What other areas read of the platform's settings (auth: registration; tracks: uploads, the default
 * quota, the largest file). Only the admin area reads or writes the platform_settings table.
 */
export interface SettingsReader {
  current(): Promise<SettingsValues>;
}

/** A read is reused this long: another instance's change reaches this one within it, this one's at once. */
const CACHE_MS = 5_000;

const SETTING_KEYS = [
  'registration_open',
  'uploads_enabled',
  'default_quota_bytes',
  'max_upload_bytes',
  'announcement',
] as const satisfies readonly (keyof SettingsValues)[];

export class SettingsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  find() {
    return this.db.selectFrom('platform_settings').selectAll().executeTakeFirst();
  }

  /** Locks the one row (made if missing) until the transaction ends, so that changes apply one at a time. */
  async lock() {
    await this.db
      .insertInto('platform_settings')
      .values({ id: true, settings: '{}' })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return this.db.selectFrom('platform_settings').selectAll().forUpdate().executeTakeFirstOrThrow();
  }

  /** The values an admin set (the others follow the configuration). */
  async save(values: Record<string, unknown>, by: string, at: Date): Promise<void> {
    await this.db
      .updateTable('platform_settings')
      .set({ settings: JSON.stringify(values), updated_by: by, updated_at: at })
      .execute();
  }

  /** An erased admin is no longer named as the last to change them. */
  async forget(userId: string): Promise<number> {
    const result = await this.db
      .updateTable('platform_settings')
      .set({ updated_by: null })
      .where('updated_by', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}

/**
 * The platform's settings: stored values over the deployment's defaults (registration and uploads
 * open, QUOTA_BYTES and UPLOAD_MAX_BYTES, no announcement). Reads are cached briefly; a change made
 * here replaces the cached copy once it commits.
 */
export class PlatformSettingsStore implements SettingsReader {
  private cached: { settings: StoredSettings; at: number } | undefined;

  constructor(
    private readonly deps: {
      scope: DbScope;
      repository: SettingsRepository;
      clock: Clock;
      defaults: SettingsValues;
    },
  ) {}

  /** Stored values over the defaults; a stored value of the wrong type (an older shape) is the default. */
  private resolve(stored: Record<string, unknown> | undefined): SettingsValues {
    const values: Record<string, unknown> = { ...this.deps.defaults };
    for (const key of SETTING_KEYS) {
      const value = stored?.[key];
      const fallback = this.deps.defaults[key];
      if (value === undefined) continue;
      if (key === 'announcement' ? value === null || typeof value === 'string' : typeof value === typeof fallback)
        values[key] = value;
    }
    return values as SettingsValues;
  }

  async read(): Promise<StoredSettings> {
    const now = Date.now();
    // inside a transaction the row is read as the transaction sees it
    if (!this.deps.scope.inTransaction && this.cached && now - this.cached.at < CACHE_MS) return this.cached.settings;
    const row = await this.deps.repository.find();
    const settings = {
      values: this.resolve(row?.settings),
      updated_at: row ? (row.updated_by || Object.keys(row.settings).length > 0 ? row.updated_at : null) : null,
      updated_by: row?.updated_by ?? null,
    };
    if (!this.deps.scope.inTransaction) this.cached = { settings, at: now };
    return settings;
  }

  async current(): Promise<SettingsValues> {
    return (await this.read()).values;
  }

  /**
   * Sets these values under the row's lock; answers the settings before and after. Only the values
   * an admin set are stored: the others keep following the deployment's configuration. Call inside
   * a transaction.
   */
  async update(patch: Partial<SettingsValues>, by: string): Promise<{ before: SettingsValues; after: StoredSettings }> {
    const row = await this.deps.repository.lock();
    const before = this.resolve(row.settings);
    const stored: Record<string, unknown> = {};
    for (const key of SETTING_KEYS) {
      if (patch[key] !== undefined) stored[key] = patch[key];
      else if (row.settings[key] !== undefined) stored[key] = row.settings[key];
    }
    const values = this.resolve(stored);
    const at = this.deps.clock.now();
    await this.deps.repository.save(stored, by, at);
    const after = { values, updated_at: at, updated_by: by };
    this.cached = undefined;
    this.deps.scope.afterCommit(() => {
      this.cached = { settings: after, at: Date.now() };
    });
    return { before, after };
  }

  /** An erased admin is no longer named as the last to change the settings. */
  async forget(userId: string): Promise<number> {
    const forgotten = await this.deps.repository.forget(userId);
    this.cached = undefined;
    this.deps.scope.afterCommit(() => {
      this.cached = undefined;
    });
    return forgotten;
  }
}

/** The deployment's defaults, from its configuration. */
export function defaultSettings(config: Config): SettingsValues {
  return {
    registration_open: true,
    uploads_enabled: true,
    default_quota_bytes: config.uploads.quotaBytes,
    max_upload_bytes: config.uploads.maxFileBytes,
    announcement: null,
  };
}

export function createPlatformSettings(platform: { scope: DbScope; clock: Clock; config: Config }) {
  return new PlatformSettingsStore({
    scope: platform.scope,
    repository: new SettingsRepository(platform.scope),
    clock: platform.clock,
    defaults: defaultSettings(platform.config),
  });
}
