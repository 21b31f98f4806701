import { Group, Progress, Text } from '@mantine/core';
import { type CounterLevel, counterLevel } from '../diagram-state.ts';

const COLORS: Record<CounterLevel, string> = { ok: 'teal', warning: 'yellow', danger: 'red' };

export interface CounterBarProps {
  /** 'título' or 'mensagem', for the accessible name. */
  name: string;
  length: number;
  max: number;
  levels: { warning: number; danger: number };
}

/** The diagram's live counter (READINGS A-1): a bar that turns yellow, then red, and the count. */
export function CounterBar({ name, length, max, levels }: CounterBarProps) {
  const level = counterLevel(length, max, levels);
  const color = COLORS[level];
  return (
    <Group gap="xs" wrap="nowrap" mt={6} data-testid={`counter-${name}`} data-level={level}>
      <Progress
        flex={1}
        size="sm"
        radius="xl"
        color={color}
        value={Math.min(100, (length / max) * 100)}
        aria-label={`Caracteres do ${name}: ${length} de ${max}`}
      />
      <Text size="xs" fw={600} c={level === 'ok' ? 'dimmed' : color} miw={44} ta="right">
        {length}/{max}
      </Text>
    </Group>
  );
}
