import { describe, expect, it } from 'vitest';
import { geoFromHeaders } from './geo.ts';

describe("a trusted CDN's geo headers", () => {
  it('are read decoded', () => {
    expect(geoFromHeaders('cloudflare', { 'cf-ipcountry': 'BR', 'cf-ipcity': 'S%C3%A3o%20Paulo' })).toEqual({
      country: 'BR',
      region: undefined,
      city: 'São Paulo',
    });
  });

  it('that are not valid percent-encoding count as absent instead of failing the request', () => {
    expect(geoFromHeaders('cloudflare', { 'cf-ipcountry': 'BR', 'cf-ipcity': '%E0%A4%A' })).toEqual({
      country: 'BR',
      region: undefined,
      city: undefined,
    });
    expect(geoFromHeaders('vercel', { 'x-vercel-ip-city': '%' }).city).toBeUndefined();
  });
});
