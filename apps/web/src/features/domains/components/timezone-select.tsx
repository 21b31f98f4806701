import { Select, type SelectProps } from '@mantine/core';
import { useMemo } from 'react';

/*
 * 'Fuso horário do domínio' (issue #27): the IANA zone whose days the domain's analytics count and whose clock its
 * schedules, worktime and recurrences read. Brazil's four zones first, then every zone the browser knows.
 */

export const BRAZIL_ZONES = [
  { value: 'America/Sao_Paulo', label: 'Brasília (UTC−03:00)' },
  { value: 'America/Noronha', label: 'Fernando de Noronha (UTC−02:00)' },
  { value: 'America/Manaus', label: 'Manaus (UTC−04:00)' },
  { value: 'America/Rio_Branco', label: 'Rio Branco, Acre (UTC−05:00)' },
];

const brazil = new Set(BRAZIL_ZONES.map((z) => z.value));

function otherZones(current: string): { value: string; label: string }[] {
  let names: string[] = [];
  try {
    names = Intl.supportedValuesOf('timeZone');
  } catch {
    names = [];
  }
  const list = new Set(names.filter((n) => !brazil.has(n)));
  // A zone saved through the API that the browser lists under another name stays choosable.
  if (current && !brazil.has(current)) list.add(current);
  return [...list].sort().map((value) => ({ value, label: value.replaceAll('_', ' ') }));
}

type Props = Omit<SelectProps, 'data'> & { value: string };

export function TimezoneSelect({ value, ...props }: Props) {
  const data = useMemo(
    () => [
      { group: 'Brasil', items: BRAZIL_ZONES },
      { group: 'Outros fusos', items: otherZones(value) },
    ],
    [value],
  );
  return (
    <Select
      label="Fuso horário do domínio"
      description="Define o dia das análises e o relógio dos agendamentos, do Cronograma e das recorrências. Padrão: Brasília."
      searchable
      allowDeselect={false}
      nothingFoundMessage="Nenhum fuso encontrado"
      maxDropdownHeight={280}
      limit={40}
      comboboxProps={{ withinPortal: true }}
      {...props}
      value={value}
      data={data}
    />
  );
}
