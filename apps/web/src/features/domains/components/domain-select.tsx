import type { DomainItem } from '@impeto/shared';
import { isDomainAllowed } from '@impeto/shared/core';
import { Badge, type ComboboxItem, Group, Select, type SelectProps, Text } from '@mantine/core';
import { IconWorldWww } from '@tabler/icons-react';
import { domainStatus } from './domain-status.ts';

const dotColor = {
  green: 'var(--mantine-color-green-6)',
  yellow: 'var(--mantine-color-yellow-6)',
  gray: 'var(--mantine-color-red-5)',
};

function StatusDot({ color }: { color: keyof typeof dotColor }) {
  return (
    <span aria-hidden style={{ width: 10, height: 10, borderRadius: 999, background: dotColor[color], flex: 'none' }} />
  );
}

export interface DomainSelectProps {
  domains: DomainItem[];
  value: string | null;
  onSelect: (domain: DomainItem) => void;
}

/** The sidebar's selected-domain dropdown, each option colour-coded by status (doc 1 §2). */
export function DomainSelect({ domains, value, onSelect }: DomainSelectProps) {
  const byUuid = new Map(domains.map((d) => [d.uuid, d]));
  const current = value ? byUuid.get(value) : undefined;

  const renderOption: SelectProps['renderOption'] = ({ option }: { option: ComboboxItem }) => {
    const domain = byUuid.get(option.value);
    if (!domain) return option.label;
    const status = domainStatus(domain);
    return (
      <Group gap="xs" wrap="nowrap" w="100%">
        <StatusDot color={status.color} />
        <Text size="sm" truncate style={{ flex: 1 }}>
          {domain.name}
        </Text>
        {!isDomainAllowed(domain) ? (
          <Badge size="xs" variant="light" color={status.color === 'gray' ? 'red' : status.color}>
            {status.label}
          </Badge>
        ) : null}
      </Group>
    );
  };

  return (
    <Select
      label="Domínio selecionado"
      name="selected_domain"
      placeholder={domains.length ? 'Selecione um domínio' : 'Nenhum domínio'}
      data={domains.map((d) => ({ value: d.uuid, label: d.name }))}
      value={current ? current.uuid : null}
      onChange={(uuid) => {
        const domain = uuid ? byUuid.get(uuid) : undefined;
        if (domain) onSelect(domain);
      }}
      allowDeselect={false}
      disabled={domains.length === 0}
      leftSection={current ? <StatusDot color={domainStatus(current).color} /> : <IconWorldWww size={16} />}
      renderOption={renderOption}
      comboboxProps={{ withinPortal: true, width: 300, position: 'bottom-start' }}
      checkIconPosition="right"
    />
  );
}
