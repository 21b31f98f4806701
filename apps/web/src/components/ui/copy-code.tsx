import { ActionIcon, Box, Button, Code, CopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** Copy confirmations other than the script modal's main button last 3 s (READINGS A-25). */
export const COPY_CONFIRM_MS = 3000;

/** A small copy icon with a tooltip that confirms for 3 seconds. */
export function CopyIcon({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value} timeout={COPY_CONFIRM_MS}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copiado!' : label} withArrow position="top">
          <ActionIcon
            variant="subtle"
            color={copied ? 'teal' : 'gray'}
            onClick={copy}
            aria-label={copied ? 'Copiado!' : label}
          >
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

/** A code block with its own copy button (3 s confirmation). */
export function CopyCodeBlock({
  code,
  copyLabel = 'Copiar',
  copiedLabel = 'Copiado!',
}: {
  code: string;
  copyLabel?: string;
  copiedLabel?: string;
}) {
  return (
    <Box pos="relative">
      <Code
        block
        fz="xs"
        pr={120}
        style={{
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all',
          lineHeight: 1.6,
          borderRadius: 'var(--mantine-radius-md)',
        }}
      >
        {code}
      </Code>
      <CopyButton value={code} timeout={COPY_CONFIRM_MS}>
        {({ copied, copy }) => (
          <Button
            size="compact-xs"
            variant={copied ? 'filled' : 'default'}
            color={copied ? 'teal' : undefined}
            leftSection={copied ? <IconCheck size={12} /> : <IconCopy size={12} />}
            onClick={copy}
            pos="absolute"
            top={8}
            right={8}
          >
            {copied ? copiedLabel : copyLabel}
          </Button>
        )}
      </CopyButton>
    </Box>
  );
}
