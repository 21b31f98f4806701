import type { DomainItem } from '@impeto/shared';
import { msg } from '@impeto/shared/core';
import { Loader, Select } from '@mantine/core';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useChangeVersion } from '../api/change-version.ts';
import type { VersionKind } from '../api/list-versions.ts';

const LABEL: Record<VersionKind, string> = { gero: 'Versão Gero', cnsw: 'Versão CNSW' };

/** One row's version picker; the lists come from the page (one request per kind, not per row). */
export function VersionSelect({
  kind,
  domain,
  versions,
}: {
  kind: VersionKind;
  domain: DomainItem;
  versions: string[] | undefined;
}) {
  const change = useChangeVersion();
  const current = kind === 'gero' ? domain.gero_version : domain.cn_sw_version;
  const available = versions ?? [];
  const data = available.length > 0 && current && !available.includes(current) ? [current, ...available] : available;
  const value = change.isPending ? change.variables.version : data.includes(current) ? current : null;

  return (
    <Select
      aria-label={`${LABEL[kind]} de ${domain.name}`}
      size="xs"
      w={96}
      data={data}
      value={value}
      placeholder={available.length === 0 ? msg.version.empty : 'Selecione'}
      nothingFoundMessage={msg.version.empty}
      allowDeselect={false}
      checkIconPosition="right"
      disabled={change.isPending}
      rightSection={change.isPending ? <Loader size={12} /> : undefined}
      comboboxProps={{ withinPortal: true }}
      onChange={(version) => {
        if (!version || version === current) return;
        change.mutate(
          { kind, domainUuid: domain.uuid, version },
          {
            onSuccess: (answer) => notifySuccess(answer.message || msg.version.changed(kind)),
            onError: () => notifyError(msg.version.changeFailed(kind)),
          },
        );
      }}
    />
  );
}
