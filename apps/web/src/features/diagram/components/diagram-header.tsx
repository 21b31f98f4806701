import { ActionIcon, Group, Stack, Text, Textarea, TextInput, Title, Tooltip, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { diagramMessages } from '../diagram-state.ts';
import type { DiagramKind } from '../graph.ts';
import { TourTarget } from './diagram-tour.tsx';

export const DESCRIPTION_SUMMARY = 100;
/** Up to 100 characters followed by '...' (spec doc 2 §2.4, §9). */
export const summarizeDescription = (text: string) =>
  text.length > DESCRIPTION_SUMMARY ? `${text.slice(0, DESCRIPTION_SUMMARY)}...` : text;

const untitled = (kind: DiagramKind) => (kind === 'campaign' ? 'Campanha sem título' : 'Momentum sem título');

export interface TitleEditorProps {
  kind: DiagramKind;
  value: string;
  onChange: (value: string) => void;
  readOnly?: boolean;
}

/** Title with a pencil; leaving it empty warns at once (spec doc 2 §5). */
export function TitleEditor({ kind, value, onChange, readOnly }: TitleEditorProps) {
  const [editing, setEditing] = useState(false);
  const done = () => {
    setEditing(false);
    if (!value.trim())
      notifications.show({ color: 'yellow', title: 'Atenção', message: diagramMessages.titleEmpty(kind) });
  };
  if (editing && !readOnly) {
    return (
      <Group gap="xs" wrap="nowrap">
        <TextInput
          aria-label="Título"
          placeholder={untitled(kind)}
          value={value}
          maxLength={120}
          onChange={(e) => onChange(e.currentTarget.value)}
          onBlur={done}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === 'Escape') e.currentTarget.blur();
          }}
          size="md"
          w={{ base: '100%', xs: 360 }}
          autoFocus
          styles={{ input: { fontWeight: 700, fontSize: 20 } }}
        />
        <ActionIcon
          variant="light"
          size="lg"
          aria-label="Concluir título"
          onMouseDown={(e) => e.preventDefault()}
          onClick={done}
        >
          <IconCheck size={18} />
        </ActionIcon>
      </Group>
    );
  }
  return (
    <Group gap={6} wrap="nowrap">
      <Title
        order={3}
        c={value.trim() ? undefined : 'dimmed'}
        lineClamp={2}
        maw={520}
        style={{ overflowWrap: 'anywhere' }}
      >
        {value.trim() || untitled(kind)}
      </Title>
      {readOnly ? null : (
        <Tooltip label="Editar título">
          <ActionIcon variant="subtle" aria-label="Editar título" onClick={() => setEditing(true)}>
            <IconPencil size={18} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}

export interface DescriptionEditorProps {
  value: string;
  onChange: (value: string) => void;
  readOnly?: boolean;
}

/** Optional description: a one-line summary that expands into a text area on focus. */
export function DescriptionEditor({ value, onChange, readOnly }: DescriptionEditorProps) {
  const [focused, setFocused] = useState(false);
  if (focused && !readOnly) {
    return (
      <Textarea
        aria-label="Descrição"
        placeholder="Descreva o objetivo deste envio"
        value={value}
        maxLength={2000}
        onChange={(e) => onChange(e.currentTarget.value)}
        onBlur={() => setFocused(false)}
        autosize
        minRows={3}
        maxRows={6}
        w={{ base: '100%', sm: 520 }}
        autoFocus
      />
    );
  }
  const summary = summarizeDescription(value.trim());
  return readOnly ? (
    <Text size="sm" c="dimmed" maw={620}>
      {summary || 'Sem descrição'}
    </Text>
  ) : (
    <UnstyledButton onClick={() => setFocused(true)} aria-label="Editar descrição" maw={620}>
      <Text size="sm" c="dimmed" fs={summary ? undefined : 'italic'}>
        {summary || 'Adicionar uma descrição (opcional)'}
      </Text>
    </UnstyledButton>
  );
}

export function DiagramTitleBlock({
  kind,
  title,
  description,
  onTitle,
  onDescription,
  titleLocked,
  readOnly,
}: {
  kind: DiagramKind;
  title: string;
  description: string;
  onTitle: (v: string) => void;
  onDescription: (v: string) => void;
  titleLocked: boolean;
  readOnly: boolean;
}) {
  return (
    <Stack gap={2} miw={0} flex="1 1 260px">
      <TourTarget step={0}>
        <TitleEditor kind={kind} value={title} onChange={onTitle} readOnly={readOnly || titleLocked} />
      </TourTarget>
      <TourTarget step={1}>
        <DescriptionEditor value={description} onChange={onDescription} readOnly={readOnly} />
      </TourTarget>
    </Stack>
  );
}
