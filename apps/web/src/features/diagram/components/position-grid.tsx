import { Box, Input, Radio, SimpleGrid } from '@mantine/core';
import { ALERT_POSITIONS, type AlertPosition } from '../webview.ts';

const ALIGN = { Left: 'flex-start', Center: 'center', Right: 'flex-end' } as const;
const JUSTIFY = { top: 'flex-start', center: 'center', bottom: 'flex-end' } as const;

const placement = (p: AlertPosition) => {
  const [, row, column] = p.match(/^(top|center|bottom)(Left|Center|Right)$/) as unknown as [
    string,
    keyof typeof JUSTIFY,
    keyof typeof ALIGN,
  ];
  return { justifyContent: ALIGN[column], alignItems: JUSTIFY[row] };
};

/**
 * Where the alert appears, as a 3×3 picture of the screen: one radio per cell (arrow keys move between them,
 * as in any radio group), labelled in pt-BR for screen readers.
 */
export function PositionGrid({
  value,
  onChange,
  labels,
  readOnly,
}: {
  value: AlertPosition;
  onChange: (value: AlertPosition) => void;
  labels: Record<AlertPosition, string>;
  readOnly?: boolean;
}) {
  return (
    <Radio.Group
      value={value}
      onChange={(v) => !readOnly && onChange(v as AlertPosition)}
      label="Posição"
      description={labels[value]}
      readOnly={readOnly}
    >
      <Input.Wrapper mt={6}>
        <SimpleGrid cols={3} spacing={6} w={168} role="presentation">
          {ALERT_POSITIONS.map((p) => {
            const checked = p === value;
            return (
              <Radio.Card
                key={p}
                value={p}
                aria-label={labels[p]}
                title={labels[p]}
                radius="sm"
                h={40}
                p={5}
                disabled={readOnly && !checked}
                style={{
                  display: 'flex',
                  ...placement(p),
                  borderColor: checked ? 'var(--mantine-color-brand-6)' : undefined,
                  background: checked ? 'var(--mantine-color-brand-0)' : undefined,
                }}
              >
                <Box w={16} h={8} bg={checked ? 'brand.6' : 'gray.4'} style={{ borderRadius: 2 }} aria-hidden="true" />
              </Radio.Card>
            );
          })}
        </SimpleGrid>
      </Input.Wrapper>
    </Radio.Group>
  );
}
