import { Anchor, Group, Loader, Paper, Text } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError } from '../../../lib/notify.ts';
import { AUDIENCE_DEBOUNCE_MS, formatAudience } from '../../blocks/index.ts';
import { type Impact, useCalculateImpact } from '../api/calculate-impact.ts';

export type ImpactState = 'idle' | 'calculating' | 'calculated';

/** The spec's 'Impacto: N% da base' with the number of people in front (issue #29): 'Impacto: 400 pessoas (12,5% da base)'. */
export const formatImpact = (impact: Impact) => `Impacto: ${formatAudience(impact)}`;

export interface ImpactIndicatorProps {
  domainUuid: string;
  /** The blocks to send, or null when the filter is not complete (then `onInvalid` explains). */
  getBlocks: () => unknown[] | null;
  onInvalid: () => void;
  /**
   * Once the user has asked for the impact in this editor, a changed filter is calculated again by itself (after the
   * same quiet time as the v2 form's estimate): the figure follows the filter live (issue #29).
   */
  live?: boolean;
  onCalculated?: () => void;
}

/**
 * 'Calcular impacto' → the share of the base the filter reaches (spec doc 2 §2.4, §4). The page remounts it
 * (key) when the filter changes, so a shown figure always belongs to the current filter.
 */
export function ImpactIndicator({ domainUuid, getBlocks, onInvalid, live, onCalculated }: ImpactIndicatorProps) {
  const impact = useCalculateImpact(domainUuid);
  const [result, setResult] = useState<Impact | null>(null);
  const state: ImpactState = impact.isPending ? 'calculating' : result === null ? 'idle' : 'calculated';

  const run = (blocks: unknown[]) =>
    impact.mutate(blocks, {
      onSuccess: (data) => {
        setResult({
          percentualAtingido: Number(data?.percentualAtingido ?? 0),
          total: Number(data?.total ?? 0),
          impacted: Number(data?.impacted ?? 0),
          estimated: data?.estimated === true,
        });
        onCalculated?.();
      },
      onError: (error) => notifyError(errorMessage(error)),
    });
  const calculate = () => {
    const blocks = getBlocks();
    if (!blocks) return onInvalid();
    run(blocks);
  };

  // Mounted anew for each filter (the page's key): live, a complete filter is calculated by itself; an incomplete
  // one waits for the button, which says what is missing.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per mount, on purpose
  useEffect(() => {
    if (!live) return;
    const timer = setTimeout(() => {
      const blocks = getBlocks();
      if (blocks) run(blocks);
    }, AUDIENCE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, []);

  return (
    <Paper withBorder radius="xl" px="md" py={6} shadow="xs" data-state={state} data-testid="impact-indicator">
      <Group gap="xs" wrap="nowrap">
        <IconUsers size={16} color="var(--mantine-color-grape-6)" />
        {state === 'calculating' ? (
          <>
            <Loader size={14} />
            <Text size="sm">Calculando impacto...</Text>
          </>
        ) : state === 'calculated' && result !== null ? (
          <>
            <Text size="sm" fw={600}>
              {formatImpact(result)}
            </Text>
            <Anchor component="button" type="button" size="sm" onClick={calculate}>
              Recalcular
            </Anchor>
          </>
        ) : (
          <Anchor component="button" type="button" size="sm" fw={600} onClick={calculate}>
            Calcular impacto
          </Anchor>
        )}
      </Group>
    </Paper>
  );
}
