/*
 * A person's time zone from their place (the collector's geo: country code, region and city names, from the GeoLite2
 * database or a CDN's headers), for a visitor whose browser never reported one (issue #27). Brazil by state, with the
 * exceptions that matter (Fernando de Noronha; western Amazonas keeps Manaus' zone here, as most of its people do);
 * the United States by state; other countries by the zone most of their people live in. Null: unknown, the caller
 * falls back to the domain's zone. Zod-free and pure.
 */

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();

const BRAZIL: Record<string, string> = {};
const brazil = (zone: string, states: [uf: string, name: string][]) => {
  for (const [uf, name] of states) {
    BRAZIL[uf.toLowerCase()] = zone;
    BRAZIL[fold(name)] = zone;
    BRAZIL[fold(`state of ${name}`)] = zone;
  }
};
brazil('America/Sao_Paulo', [
  ['SP', 'São Paulo'],
  ['RJ', 'Rio de Janeiro'],
  ['MG', 'Minas Gerais'],
  ['ES', 'Espírito Santo'],
  ['PR', 'Paraná'],
  ['SC', 'Santa Catarina'],
  ['RS', 'Rio Grande do Sul'],
  ['GO', 'Goiás'],
  ['DF', 'Distrito Federal'],
  ['DF', 'Federal District'],
]);
brazil('America/Bahia', [['BA', 'Bahia']]);
brazil('America/Recife', [
  ['PE', 'Pernambuco'],
  ['PB', 'Paraíba'],
  ['RN', 'Rio Grande do Norte'],
]);
brazil('America/Fortaleza', [
  ['CE', 'Ceará'],
  ['PI', 'Piauí'],
  ['MA', 'Maranhão'],
]);
brazil('America/Maceio', [
  ['AL', 'Alagoas'],
  ['SE', 'Sergipe'],
]);
brazil('America/Belem', [
  ['PA', 'Pará'],
  ['AP', 'Amapá'],
]);
brazil('America/Araguaina', [['TO', 'Tocantins']]);
brazil('America/Cuiaba', [['MT', 'Mato Grosso']]);
brazil('America/Campo_Grande', [['MS', 'Mato Grosso do Sul']]);
brazil('America/Manaus', [['AM', 'Amazonas']]);
brazil('America/Boa_Vista', [['RR', 'Roraima']]);
brazil('America/Porto_Velho', [['RO', 'Rondônia']]);
brazil('America/Rio_Branco', [['AC', 'Acre']]);

const US: Record<string, string> = {};
const us = (zone: string, states: string) => {
  for (const s of states.split(',')) US[fold(s)] = zone;
};
us(
  'America/New_York',
  'connecticut,delaware,district of columbia,florida,georgia,maine,maryland,massachusetts,michigan,new hampshire,new jersey,new york,north carolina,ohio,pennsylvania,rhode island,south carolina,vermont,virginia,west virginia,indiana,kentucky',
);
us(
  'America/Chicago',
  'alabama,arkansas,illinois,iowa,kansas,louisiana,minnesota,mississippi,missouri,nebraska,north dakota,oklahoma,south dakota,tennessee,texas,wisconsin',
);
us('America/Denver', 'colorado,idaho,montana,new mexico,utah,wyoming');
us('America/Phoenix', 'arizona');
us('America/Los_Angeles', 'california,nevada,oregon,washington');
us('America/Anchorage', 'alaska');
us('Pacific/Honolulu', 'hawaii');

const COUNTRY: Record<string, string> = {
  AR: 'America/Argentina/Buenos_Aires',
  AU: 'Australia/Sydney',
  BO: 'America/La_Paz',
  CA: 'America/Toronto',
  CH: 'Europe/Zurich',
  CL: 'America/Santiago',
  CN: 'Asia/Shanghai',
  CO: 'America/Bogota',
  DE: 'Europe/Berlin',
  EC: 'America/Guayaquil',
  ES: 'Europe/Madrid',
  FR: 'Europe/Paris',
  GB: 'Europe/London',
  IE: 'Europe/Dublin',
  IN: 'Asia/Kolkata',
  IT: 'Europe/Rome',
  JP: 'Asia/Tokyo',
  MX: 'America/Mexico_City',
  NL: 'Europe/Amsterdam',
  PE: 'America/Lima',
  PT: 'Europe/Lisbon',
  PY: 'America/Asuncion',
  UY: 'America/Montevideo',
  US: 'America/New_York',
  VE: 'America/Caracas',
  AO: 'Africa/Luanda',
  MZ: 'Africa/Maputo',
  BE: 'Europe/Brussels',
  AT: 'Europe/Vienna',
  PL: 'Europe/Warsaw',
  SE: 'Europe/Stockholm',
  NO: 'Europe/Oslo',
  DK: 'Europe/Copenhagen',
  FI: 'Europe/Helsinki',
  IL: 'Asia/Jerusalem',
  ZA: 'Africa/Johannesburg',
  KR: 'Asia/Seoul',
};

export function zoneOfPlace(country?: unknown, region?: unknown, city?: unknown): string | null {
  const c = typeof country === 'string' ? country.trim().toUpperCase() : '';
  const r = typeof region === 'string' ? fold(region) : '';
  if (c === 'BR') {
    if (typeof city === 'string' && fold(city) === 'fernando de noronha') return 'America/Noronha';
    return BRAZIL[r] ?? 'America/Sao_Paulo';
  }
  if (c === 'US' && US[r]) return US[r]!;
  return COUNTRY[c] ?? null;
}
