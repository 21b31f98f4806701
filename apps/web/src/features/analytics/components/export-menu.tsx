import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconFileExport, IconFileSpreadsheet } from '@tabler/icons-react';
import { downloadText } from '../../../lib/csv.ts';

/** The spec's 'Extrair para:' button; the CSV is written in the browser from what the widgets show. */
export function ExportMenu({ onCsv }: { onCsv: () => Promise<{ fileName: string; text: string }> }) {
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconFileExport size={16} />}
          rightSection={<IconChevronDown size={14} />}
        >
          Extrair para:
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Formato</Menu.Label>
        <Menu.Item
          leftSection={<IconFileSpreadsheet size={16} />}
          onClick={async () => {
            const { fileName, text } = await onCsv();
            downloadText(fileName, text);
          }}
        >
          CSV (.csv)
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
