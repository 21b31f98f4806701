/** Brazilian states by the names the geo database uses, with their UF initials. */
export const BR_STATES: Record<string, string> = {
  Acre: 'AC',
  Alagoas: 'AL',
  Amapa: 'AP',
  Amazonas: 'AM',
  Bahia: 'BA',
  Ceara: 'CE',
  'Distrito Federal': 'DF',
  'Espirito Santo': 'ES',
  Goias: 'GO',
  Maranhao: 'MA',
  'Mato Grosso': 'MT',
  'Mato Grosso do Sul': 'MS',
  'Minas Gerais': 'MG',
  Para: 'PA',
  Paraiba: 'PB',
  Parana: 'PR',
  Pernambuco: 'PE',
  Piaui: 'PI',
  'Rio de Janeiro': 'RJ',
  'Rio Grande do Norte': 'RN',
  'Rio Grande do Sul': 'RS',
  Rondonia: 'RO',
  Roraima: 'RR',
  'Santa Catarina': 'SC',
  'Sao Paulo': 'SP',
  Sergipe: 'SE',
  Tocantins: 'TO',
};

const stripAccents = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
export const stateInitials = (name: string) => BR_STATES[stripAccents(name)];

/** 'BR' → 🇧🇷 (regional indicator symbols). */
export const flagOf = (code: string) =>
  /^[A-Z]{2}$/.test(code) ? String.fromCodePoint(...[...code].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65)) : '🌐';

const countryNames = new Intl.DisplayNames(['pt-BR'], { type: 'region' });
export const countryName = (code: string) => {
  try {
    return countryNames.of(code) ?? code;
  } catch {
    return code;
  }
};
