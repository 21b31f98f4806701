import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconBolt } from '@tabler/icons-react';

export function Logo({ size = 'md' }: { size?: 'sm' | 'md' | 'lg' }) {
  const icon = { sm: 26, md: 32, lg: 44 }[size];
  const text = { sm: 'lg', md: 'xl', lg: '1.9rem' }[size];
  return (
    // role="img": a plain div may not carry aria-label (axe-core aria-prohibited-attr); its parts are decoration.
    <Group gap={8} wrap="nowrap" role="img" aria-label="Ímpeto">
      <ThemeIcon
        size={icon}
        radius="md"
        variant="gradient"
        gradient={{ from: 'brand.7', to: 'violet.4', deg: 135 }}
        aria-hidden
      >
        <IconBolt size={icon * 0.62} stroke={2.2} />
      </ThemeIcon>
      <Text component="span" fw={800} fz={text} lh={1} c="dark.7" style={{ letterSpacing: '-0.02em' }} aria-hidden>
        Ímpeto
      </Text>
    </Group>
  );
}
