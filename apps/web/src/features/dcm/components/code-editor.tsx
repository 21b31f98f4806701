import { Box, Group, Input, Skeleton, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { bytes, formatBytes } from '../dcm-state.ts';

export type CodeLanguage = 'html' | 'css' | 'javascript';

const CodeMirrorField = lazy(() => import('./code-mirror-field.tsx'));

export interface CodeEditorProps {
  language: CodeLanguage;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Bytes allowed (UTF-8); the counter turns red past it. */
  limit: number;
  error?: string;
  readOnly?: boolean;
  height?: number;
  description?: string;
}

/** A code field with its size counter; the editor itself arrives in its own chunk. */
export function CodeEditor({
  language,
  label,
  value,
  onChange,
  limit,
  error,
  readOnly,
  height = 220,
  description,
}: CodeEditorProps) {
  const size = bytes(value);
  return (
    <Input.Wrapper label={label} description={description} error={error}>
      <Box
        mt={6}
        style={{
          border: `1px solid var(--mantine-color-${error ? 'red-6' : 'gray-3'})`,
          borderRadius: 'var(--mantine-radius-md)',
          overflow: 'hidden',
        }}
      >
        <Suspense fallback={<Skeleton height={height} radius={0} aria-label={`Carregando o editor de ${label}`} />}>
          <CodeMirrorField
            language={language}
            value={value}
            onChange={onChange}
            label={label}
            readOnly={readOnly}
            height={height}
          />
        </Suspense>
      </Box>
      <Group justify="flex-end" mt={4}>
        <Text size="xs" c={size > limit ? 'red' : 'dimmed'} style={{ fontVariantNumeric: 'tabular-nums' }}>
          {formatBytes(size)} de {formatBytes(limit)}
        </Text>
      </Group>
    </Input.Wrapper>
  );
}
