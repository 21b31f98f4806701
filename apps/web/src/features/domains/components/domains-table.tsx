import type { DomainItem } from '@impeto/shared';
import { Skeleton, Table } from '@mantine/core';
import { DomainRow, STICKY_END } from './domain-row.tsx';

const COLUMNS = ['Nº', 'Nome', 'Domínio', 'Status', 'Versão Gero', 'Versão CNSW', 'Script', 'Opções'];

export interface DomainsTableProps {
  domains: DomainItem[] | undefined;
  loading: boolean;
  geroVersions: string[] | undefined;
  cnswVersions: string[] | undefined;
  onEdit: (domain: DomainItem) => void;
  onShowScript: (domain: DomainItem) => void;
}

export function DomainsTable({ domains, loading, ...rowProps }: DomainsTableProps) {
  return (
    <Table.ScrollContainer minWidth={1000}>
      <Table verticalSpacing="sm" horizontalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((column) => (
              <Table.Th
                key={column}
                fz="xs"
                tt="uppercase"
                c="dimmed"
                style={{ whiteSpace: 'nowrap', ...(column === 'Opções' ? STICKY_END : {}) }}
              >
                {column}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {loading || !domains
            ? [0, 1, 2].map((row) => (
                <Table.Tr key={row} aria-hidden>
                  {COLUMNS.map((column) => (
                    <Table.Td key={column}>
                      <Skeleton height={column.startsWith('Versão') || column === 'Script' ? 28 : 14} radius="sm" />
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))
            : domains.map((domain, index) => (
                <DomainRow key={domain.uuid} index={index} domain={domain} {...rowProps} />
              ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
