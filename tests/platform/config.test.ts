import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/src/platform/config/config.js';

describe('configuration', () => {
  it('has the ADDENDUM defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.dataDir).toMatch(/\.data$/);
    expect(config.publicBaseUrl).toBe('http://127.0.0.1:8080');
    expect(config.mail.outboxDir).toBe(`${config.dataDir}/mail`);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.storage.driver).toBe('local');
    expect(config.logLevel).toBe('info');
    // no FFMPEG_PATH and no PATH: the binary shipped in the npm package
    expect(config.ffmpegPath).toMatch(/@ffmpeg-installer[/\\][^/\\]+[/\\]ffmpeg(\.exe)?$/);
    expect(config.secureCookies).toBe(false);
    expect(config.plays).toEqual({ anonymousPerAddress: 3, anonymousPeriodHours: 24 });
    expect(config.analyticsRollupSeconds).toBe(300);
    expect(loadConfig({ ANALYTICS_ROLLUP_SECONDS: '3600' }).analyticsRollupSeconds).toBe(3600);
    expect(loadConfig({ ANALYTICS_ROLLUP_SECONDS: '2' }).analyticsRollupSeconds).toBe(2);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['REDIS_URL', 'http://localhost'],
    ['STORAGE_DRIVER', 'ftp'],
    ['LOG_LEVEL', 'loud'],
    ['CORS_ORIGINS', 'not a url'],
    ['CORS_MAX_AGE_SECONDS', '-1'],
    ['SMTP_URL', 'mail.example.com'],
    ['PUBLIC_BASE_URL', 'ftp://x'],
    ['JWT_PRIVATE_KEY', 'not a pem'],
    ['SECRET_KEY', 'c2hvcnQ='],
    ['ANONYMOUS_PLAYS_PER_ADDRESS', '0'],
    ['ANONYMOUS_PLAYS_PERIOD_HOURS', 'a day'],
    ['ANALYTICS_ROLLUP_SECONDS', '0'],
    ['ANALYTICS_ROLLUP_SECONDS', '3601'],
    ['ANALYTICS_ROLLUP_SECONDS', '1.5'],
    ['ANALYTICS_ROLLUP_SECONDS', 'often'],
  ])('a bad %s stops the start with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });

  it('S3 storage needs a bucket', () => {
    expect(() => loadConfig({ STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET/);
  });

  it('parses lists and derived values', () => {
    const config = loadConfig({
      CORS_ORIGINS: 'https://a.example, https://b.example/',
      PUBLIC_BASE_URL: 'https://riff.example/',
      STUN_URLS: 'stun:a,stun:b',
    });
    expect(config.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(config.publicBaseUrl).toBe('https://riff.example');
    expect(config.secureCookies).toBe(true);
    expect(config.webrtc.stunUrls).toEqual(['stun:a', 'stun:b']);
  });
});
