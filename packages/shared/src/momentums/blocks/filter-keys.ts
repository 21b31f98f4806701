export const TEXT_OPERATORS = ['==', '!=', '<', '<=', '>', '>=', 'contain', 'notcontain', 'exactly'] as const;
export const SELECT_OPERATORS = ['==', '!=', 'contain', 'notcontain'] as const;
export const DATE_OPERATORS = ['<', '>', 'between'] as const;
export type FilterOperator = (typeof TEXT_OPERATORS)[number] | (typeof DATE_OPERATORS)[number];
/** Operators that select by absence: a person without the attribute always passes them. */
export const NEGATIVE_OPERATORS = ['!=', 'notcontain'] as const;
/** Operators the regex flag may turn into a pattern match (positive: any value matches; negative: none). */
export const REGEX_OPERATORS = ['==', '!=', 'contain', 'notcontain', 'exactly'] as const;

export const OPERATOR_LABELS: Record<FilterOperator, string> = {
  '==': 'Igual a',
  '!=': 'Diferente de',
  '<': 'Menor que',
  '<=': 'Menor ou igual a',
  '>': 'Maior que',
  '>=': 'Maior ou igual a',
  contain: 'Contém',
  notcontain: 'Não contém',
  exactly: 'Exatamente',
  between: 'Entre',
};
export const DATE_OPERATOR_LABELS = { '<': 'Antes de', '>': 'Depois de', between: 'Entre' } as const;

export type FilterMask = 'text' | 'select' | 'date' | 'boolean' | 'none';
/** How the attribute is stored: one string, a JSON array of strings, a boolean, an ISO datetime, or nothing ('all'). */
export type FilterKind = 'string' | 'list' | 'boolean' | 'date' | 'all';

const key = <K extends string>(key: K, name: string, mask: FilterMask, kind: FilterKind) =>
  ({ key, name, mask, kind }) as const;

/** The filters of spec doc 2 §3.2, keys prefixed `user_stored_data.` (READINGS A-36); 'all' is unprefixed. */
export const FILTER_KEYS = [
  key('all', 'Todos', 'none', 'all'),
  key('user_stored_data.navigator.browser', 'Navegador', 'select', 'string'),
  key('user_stored_data.navigator.version', 'Versão do navegador', 'text', 'string'),
  key('user_stored_data.navigator.language', 'Idioma', 'select', 'string'),
  key('user_stored_data.navigator.mobile', 'Mobile', 'boolean', 'boolean'),
  key('user_stored_data.client.device.os', 'Sistema operacional', 'select', 'string'),
  key('user_stored_data.client.device.name', 'Dispositivo', 'select', 'string'),
  key('user_stored_data.client.location.country', 'País', 'select', 'string'),
  key('user_stored_data.client.location.region', 'Estado', 'select', 'string'),
  key('user_stored_data.client.location.city', 'Cidade', 'select', 'string'),
  // The browser's IANA zone, as the tag reports it (issue #27).
  key('user_stored_data.client.location.timezone', 'Fuso horário', 'select', 'string'),
  key('user_stored_data.asn.autonomous_system_organization', 'Operadora (ASN)', 'select', 'string'),
  key('user_stored_data.visited.url', 'Páginas visitadas', 'text', 'list'),
  key('user_stored_data.origin', 'Origem', 'text', 'string'),
  key('user_stored_data.createdAt', 'Data de cadastro', 'date', 'date'),
  key('user_stored_data.notified.clicked', 'Clicou em notificação', 'boolean', 'boolean'),
  key('user_stored_data.notified.viewed', 'Visualizou notificação', 'boolean', 'boolean'),
  key('user_stored_data.notified.momentum_uuid', 'Momentum notificado', 'select', 'list'),
] as const;
export type FilterKeyInfo = (typeof FILTER_KEYS)[number];
export type FilterKey = FilterKeyInfo['key'];

export const STORED_DATA_PREFIX = 'user_stored_data.';
/** 'user_stored_data.navigator.browser' → 'navigator.browser', the key inside persons.attributes. */
export const attributeKey = (filterKey: string) =>
  filterKey.startsWith(STORED_DATA_PREFIX) ? filterKey.slice(STORED_DATA_PREFIX.length) : filterKey;

export const filterKeyInfo = (filterKey: string): FilterKeyInfo | undefined =>
  FILTER_KEYS.find((k) => k.key === filterKey);

export function operatorsFor(filterKey: string): readonly FilterOperator[] {
  switch (filterKeyInfo(filterKey)?.mask) {
    case 'text':
      return TEXT_OPERATORS;
    case 'select':
    case 'boolean':
      return SELECT_OPERATORS;
    case 'date':
      return DATE_OPERATORS;
    default:
      return [];
  }
}
