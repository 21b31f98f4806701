import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const base = { DATA_DIR: '/tmp/impeto-config-test', SECRET_KEY: 'k'.repeat(43) };

describe('config', () => {
  it('refuses more than one process on the embedded database, with a pt-BR reason', () => {
    expect(() => loadConfig({ ...base, API_PROCESSES: '2' })).toThrow(
      /API_PROCESSES acima de 1 precisa de DATABASE_URL/,
    );
    expect(() => loadConfig({ ...base, ROLE: 'worker' })).toThrow(/ROLE=worker precisa de DATABASE_URL/);
  });

  it('runs several API processes on PostgreSQL, and a worker is always one process', () => {
    const url = 'postgres://postgres@127.0.0.1:5432/x';
    expect(loadConfig({ ...base, DATABASE_URL: url, API_PROCESSES: '4' }).apiProcesses).toBe(4);
    expect(loadConfig({ ...base, DATABASE_URL: url, API_PROCESSES: '4', ROLE: 'worker' }).apiProcesses).toBe(1);
    expect(loadConfig(base)).toMatchObject({ apiProcesses: 1, deliveryLeaseSeconds: 60 });
  });

  it('keeps the collector spool in the data folder unless told otherwise, and COLLECT_SPOOL=off turns it off', () => {
    expect(loadConfig(base).collectSpool).toBe('/tmp/impeto-config-test/spool');
    expect(loadConfig({ ...base, COLLECT_SPOOL: '/var/spool/impeto' }).collectSpool).toBe('/var/spool/impeto');
    expect(loadConfig({ ...base, COLLECT_SPOOL: 'off' }).collectSpool).toBeUndefined();
    expect(loadConfig(base)).toMatchObject({ collectMemoryEvents: 50_000, collectSpoolMaxBytes: 1024 * 1024 * 1024 });
    expect(loadConfig({ ...base, COLLECT_SPOOL_MAX_MB: '10' }).collectSpoolMaxBytes).toBe(10 * 1024 * 1024);
  });

  it('reads TRUST_PROXY in the forms Fastify takes: off, every proxy, or the proxies named', () => {
    const trust = (TRUST_PROXY?: string) =>
      loadConfig({ ...base, ...(TRUST_PROXY === undefined ? {} : { TRUST_PROXY }) });
    expect(trust().trustProxy).toBe(false);
    for (const off of ['', '0', 'false']) expect(trust(off).trustProxy).toBe(false);
    for (const on of ['1', 'true']) expect(trust(on).trustProxy).toBe(true);
    expect(trust('10.0.0.0/8, 127.0.0.1,::1').trustProxy).toBe('10.0.0.0/8,127.0.0.1,::1');
    expect(trust('loopback,uniquelocal').trustProxy).toBe('loopback,uniquelocal');
    // Fastify ignores a hop count (a direct client could claim the hops): refused rather than silently off.
    for (const bad of ['2', 'sim', '10.0.0.0/33', '-1', '300.0.0.1', 'loopback,']) {
      expect(() => trust(bad), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it("takes the engine's batch, concurrency and encryption threads from the environment, and refuses nonsense", () => {
    expect(loadConfig(base)).toMatchObject({
      engineBatchSize: 500,
      engineConcurrency: 160,
      pushEncryptThreads: undefined,
    });
    expect(
      loadConfig({ ...base, ENGINE_BATCH_SIZE: '200', ENGINE_CONCURRENCY: '16', PUSH_ENCRYPT_THREADS: '0' }),
    ).toMatchObject({ engineBatchSize: 200, engineConcurrency: 16, pushEncryptThreads: 0 });
    expect(() => loadConfig({ ...base, ENGINE_BATCH_SIZE: '0' })).toThrow();
    expect(() => loadConfig({ ...base, ENGINE_CONCURRENCY: 'muitos' })).toThrow();
  });
});
