import { Button, Menu } from '@mantine/core';
import { IconBolt, IconCalendarTime, IconChevronUp, IconDeviceFloppy, IconFileDescription } from '@tabler/icons-react';

export type SaveChoice = 'draft' | 'schedule' | 'now';

export interface SaveMenuProps {
  loading: boolean;
  onChoose: (choice: SaveChoice) => void;
  /** An existing non-draft item keeps its status: a single Salvar button (spec doc 2 §2.3). */
  single?: boolean;
  onSave?: () => void;
}

/** 'Salvar como' drop-up: Rascunho (Draft), Agendamento (Paused + scheduled_at), Imediato (Active). */
export function SaveMenu({ loading, onChoose, single, onSave }: SaveMenuProps) {
  if (single) {
    return (
      <Button leftSection={<IconDeviceFloppy size={16} />} loading={loading} onClick={onSave}>
        Salvar
      </Button>
    );
  }
  return (
    <Menu position="top-end" shadow="md" width={220} withArrow>
      <Menu.Target>
        <Button
          rightSection={<IconChevronUp size={16} />}
          leftSection={<IconDeviceFloppy size={16} />}
          loading={loading}
        >
          Salvar como
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconFileDescription size={16} />} onClick={() => onChoose('draft')}>
          Rascunho
        </Menu.Item>
        <Menu.Item leftSection={<IconCalendarTime size={16} />} onClick={() => onChoose('schedule')}>
          Agendamento
        </Menu.Item>
        <Menu.Item leftSection={<IconBolt size={16} />} onClick={() => onChoose('now')}>
          Imediato
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
