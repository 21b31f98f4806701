import { Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ExperimentEditor, type ExperimentState, type FieldErrors, VariantTabs } from '../../blocks/index.ts';
import type { DcmTagsState } from '../dcm-state.ts';
import { TagsEditor } from './tags-editor.tsx';

export interface DcmExperimentErrors {
  experiment?: FieldErrors;
  /** Each variant's tag errors, B at 0 (A's are the item's own). */
  variants?: (FieldErrors | undefined)[];
}

export interface DcmVariantsProps {
  value: DcmTagsState;
  onChange: (value: DcmTagsState) => void;
  errors?: FieldErrors;
  disabled?: boolean;
  selectorRequired: boolean;
  experiment: ExperimentState<DcmTagsState>;
  onExperimentChange: (value: ExperimentState<DcmTagsState>) => void;
  experimentErrors: DcmExperimentErrors;
}

/**
 * The GCD manager's Tags customizadas with 'Teste A/B' (issue #25), as the diagram's channel block does it
 * (features/diagram/components/channel-variants.tsx): a tab per variant over the tags editor (variant A is the item's
 * own content), then the shared shares and 'Grupo de controle'. The tag draws each visitor's variant in the page.
 */
export function DcmVariants(props: DcmVariantsProps) {
  const { value, experiment, onExperimentChange, experimentErrors, disabled } = props;
  const [active, setActive] = useState(0);
  const count = experiment.ab ? experiment.others.length + 1 : 1;
  const shown = Math.min(active, count - 1);
  const other = shown > 0 ? experiment.others[shown - 1] : undefined;
  const edit = (next: DcmTagsState) => {
    if (shown === 0) return props.onChange(next);
    onExperimentChange({ ...experiment, others: experiment.others.map((o, i) => (i === shown - 1 ? next : o)) });
  };
  return (
    <Stack gap="md">
      <VariantTabs
        count={count}
        active={shown}
        onChange={setActive}
        invalid={[
          Object.keys(props.errors ?? {}).length > 0,
          ...(experimentErrors.variants ?? []).map((e) => Boolean(e && Object.keys(e).length)),
        ]}
      />
      <TagsEditor
        key={shown}
        value={other ?? value}
        onChange={edit}
        errors={shown === 0 ? props.errors : (experimentErrors.variants?.[shown - 1] ?? {})}
        disabled={disabled}
        selectorRequired={props.selectorRequired}
      />
      <Paper withBorder radius="md" p="sm" component="section" aria-label="Teste A/B">
        <Stack gap={4} mb="xs">
          <Title order={6}>Teste A/B</Title>
          <Text size="xs" c="dimmed">
            Opcional: compare versões do conteúdo e meça quanto ele vende a mais que não mostrar nada. Cada visitante vê
            sempre a mesma versão; o grupo de controle não vê nenhuma.
          </Text>
        </Stack>
        <ExperimentEditor
          value={experiment}
          onChange={(next) => {
            onExperimentChange(next);
            if (!next.ab) setActive(0);
          }}
          variantA={value}
          errors={experimentErrors.experiment}
          disabled={disabled}
        />
      </Paper>
    </Stack>
  );
}
