import { describe, expect, it } from 'vitest';
import { zoneOfPlace } from './place-zone.ts';

describe('a visitor’s zone from their place', () => {
  it('reads Brazil’s four offsets by state, with or without accents, by name or code', () => {
    expect(zoneOfPlace('BR', 'São Paulo', 'Campinas')).toBe('America/Sao_Paulo');
    expect(zoneOfPlace('BR', 'Sao Paulo')).toBe('America/Sao_Paulo');
    expect(zoneOfPlace('BR', 'Amazonas', 'Manaus')).toBe('America/Manaus');
    expect(zoneOfPlace('BR', 'AC')).toBe('America/Rio_Branco');
    expect(zoneOfPlace('br', 'Acre', 'Rio Branco')).toBe('America/Rio_Branco');
    expect(zoneOfPlace('BR', 'Pernambuco', 'Fernando de Noronha')).toBe('America/Noronha');
    expect(zoneOfPlace('BR', 'Pernambuco', 'Recife')).toBe('America/Recife');
    expect(zoneOfPlace('BR', 'Rondônia')).toBe('America/Porto_Velho');
    expect(zoneOfPlace('BR', 'Federal District')).toBe('America/Sao_Paulo');
    // A Brazilian visitor of an unknown state is most likely on Brasília's time.
    expect(zoneOfPlace('BR')).toBe('America/Sao_Paulo');
  });

  it('reads the United States by state and other countries by their main zone, or says it does not know', () => {
    expect(zoneOfPlace('US', 'California')).toBe('America/Los_Angeles');
    expect(zoneOfPlace('US', 'Florida', 'Miami')).toBe('America/New_York');
    expect(zoneOfPlace('PT', 'Lisboa')).toBe('Europe/Lisbon');
    expect(zoneOfPlace('AR', 'Buenos Aires')).toBe('America/Argentina/Buenos_Aires');
    expect(zoneOfPlace('ZZ')).toBeNull();
    expect(zoneOfPlace(undefined, undefined, undefined)).toBeNull();
    expect(zoneOfPlace(42, {}, null)).toBeNull();
  });

  it('names only zones the runtime knows', () => {
    for (const [country, region] of [
      ['BR', 'AC'],
      ['BR', 'TO'],
      ['US', 'hawaii'],
      ['AU', ''],
      ['KR', ''],
    ] as const) {
      const zone = zoneOfPlace(country, region)!;
      expect(() => new Intl.DateTimeFormat('en-US', { timeZone: zone })).not.toThrow();
    }
  });
});
