import { Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ExperimentEditor, type ExperimentState, type FieldErrors, VariantTabs } from '../../blocks/index.ts';
import type { ChannelFormState } from '../diagram-state.ts';
import { ChannelForm } from './channel-form.tsx';

export interface ExperimentErrors {
  experiment?: FieldErrors;
  /** Each variant's message errors, B at 0 (A's are the block's). */
  variants?: (FieldErrors | undefined)[];
}

export interface ChannelVariantsProps {
  domainUuid: string;
  siteRoot: string;
  value: ChannelFormState;
  onChange: (value: ChannelFormState) => void;
  errors: FieldErrors;
  readOnly: boolean;
  experiment: ExperimentState<ChannelFormState>;
  onExperimentChange: (value: ExperimentState<ChannelFormState>) => void;
  experimentErrors: ExperimentErrors;
  /** A journey step's message: variants only, no control group (the momentum's holds people out of the journey). */
  step?: boolean;
}

/**
 * The channel block with 'Teste A/B' (issue #25): a tab per variant over the channel form (its preview follows the
 * tab; variant A is the block's message, the others share its channel), then the variants' shares and the control
 * group.
 */
export function ChannelVariants(props: ChannelVariantsProps) {
  const { value, experiment, onExperimentChange, experimentErrors, readOnly } = props;
  const [active, setActive] = useState(0);
  const count = experiment.ab ? experiment.others.length + 1 : 1;
  const shown = Math.min(active, count - 1);
  const other = shown > 0 ? experiment.others[shown - 1] : undefined;
  const edit = (next: ChannelFormState) => {
    if (shown === 0) return props.onChange(next);
    const { channel_uuid, channel_type, ...message } = next;
    if (channel_uuid !== value.channel_uuid) props.onChange({ ...value, channel_uuid, channel_type });
    onExperimentChange({
      ...experiment,
      others: experiment.others.map((o, i) => (i === shown - 1 ? { ...o, ...message } : o)),
    });
  };
  return (
    <Stack gap="md">
      <VariantTabs
        count={count}
        active={shown}
        onChange={setActive}
        invalid={[Object.keys(props.errors).length > 0, ...(experimentErrors.variants ?? []).map(Boolean)]}
      />
      <ChannelForm
        key={shown}
        domainUuid={props.domainUuid}
        siteRoot={props.siteRoot}
        value={other ? { ...other, channel_uuid: value.channel_uuid, channel_type: value.channel_type } : value}
        onChange={edit}
        errors={shown === 0 ? props.errors : (experimentErrors.variants?.[shown - 1] ?? {})}
        readOnly={readOnly}
      />
      <Paper withBorder radius="md" p="sm" component="section" aria-label="Teste A/B">
        <Stack gap={4} mb="xs">
          <Title order={6}>Teste A/B</Title>
          <Text size="xs" c="dimmed">
            {props.step
              ? 'Opcional: compare versões da mensagem desta etapa.'
              : 'Opcional: compare versões da mensagem e meça quanto ela vende a mais que o silêncio.'}
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
          disabled={readOnly}
          noControl={props.step}
        />
      </Paper>
    </Stack>
  );
}
