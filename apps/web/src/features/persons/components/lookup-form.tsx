import { personLookupSchema } from '@impeto/shared';
import { Button, Group, SegmentedControl, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { LookupKind } from '../api/person-lookup.ts';

const FIELD: Record<LookupKind, { tab: string; label: string; placeholder: string }> = {
  vid: { tab: 'ID do visitante', label: 'ID do visitante', placeholder: 'ex.: 3f2a9c1e-…' },
  email: { tab: 'E-mail', label: 'E-mail', placeholder: 'titular@exemplo.com.br' },
  phone: { tab: 'Telefone', label: 'Telefone', placeholder: '(11) 98765-4321' },
};

/** Finds a data subject by one key; the value is checked with the API's own schema (pt-BR messages). */
export function LookupForm({
  kind: initialKind,
  value: initialValue,
  loading,
  onSearch,
}: {
  kind: LookupKind;
  value: string;
  loading: boolean;
  onSearch: (kind: LookupKind, value: string) => void;
}) {
  const [kind, setKind] = useState<LookupKind>(initialKind);
  const [value, setValue] = useState(initialValue);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setKind(initialKind);
    setValue(initialValue);
  }, [initialKind, initialValue]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = personLookupSchema.safeParse({ [kind]: value });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setError(null);
    onSearch(kind, value.trim());
  };

  return (
    <form onSubmit={submit} noValidate>
      <SegmentedControl
        mb="sm"
        value={kind}
        onChange={(next) => {
          setKind(next as LookupKind);
          setError(null);
        }}
        data={(Object.keys(FIELD) as LookupKind[]).map((k) => ({ value: k, label: FIELD[k].tab }))}
        aria-label="Buscar por"
      />
      <Group align="flex-start" gap="sm" wrap="nowrap">
        <TextInput
          style={{ flex: 1, minWidth: 0 }}
          label={FIELD[kind].label}
          placeholder={FIELD[kind].placeholder}
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          error={error}
          type={kind === 'email' ? 'email' : 'text'}
          inputMode={kind === 'phone' ? 'tel' : undefined}
        />
        <Button type="submit" mt={25} leftSection={<IconSearch size={16} />} loading={loading}>
          Buscar
        </Button>
      </Group>
    </form>
  );
}
