import { Badge, Box, Group, Paper, Text, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconShieldLock } from '@tabler/icons-react';
import { useMemo } from 'react';
import type { DcmBehavior } from '../dcm-state.ts';
import { cleanPreviewHtml } from '../preview-html.ts';

/**
 * The custom HTML and CSS drawn inside an iframe with an empty `sandbox` (no allow-scripts, no
 * allow-same-origin) from `srcdoc`: nothing in it runs, and it cannot reach the dashboard's origin, cookies or
 * storage. A CSP meta keeps it from loading anything but images and fonts. customJs never runs here. The HTML is
 * first cleaned under the shared allow-list (`cleanPreviewHtml`), as the server cleans an unverified domain's.
 */
export function previewDocument(rawHtml: string, cssCode: string, behavior: DcmBehavior, selector: string) {
  const htmlCode = cleanPreviewHtml(rawHtml);
  const existing = '<div class="gcd-existing">Conteúdo que já existe no elemento</div>';
  const inner =
    behavior === 'replace' ? htmlCode : behavior === 'afterbegin' ? htmlCode + existing : existing + htmlCode;
  const label = selector.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`) || 'elemento escolhido';
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src https: http: data:; font-src https: data:; style-src 'unsafe-inline'">
<style>body{margin:0;padding:16px;font:14px/1.5 system-ui,sans-serif;color:#1f2933;background:#f8fafc}
.gcd-host{position:relative;border:2px dashed #94a3b8;border-radius:8px;padding:12px;background:#fff}
.gcd-host::before{content:attr(data-label);position:absolute;top:-10px;left:10px;background:#f8fafc;padding:0 6px;font:600 11px/18px ui-monospace,monospace;color:#64748b}
.gcd-existing{padding:8px 10px;border-radius:6px;background:#eef2f7;color:#64748b;font-size:12px;margin:4px 0}</style>
<style>${cssCode.replace(/<\/style/gi, '<\\/style')}</style></head>
<body>${behavior === 'replace' ? `<div class="gcd-host" data-label="${label} (substituído)">${inner}</div>` : `<div class="gcd-host" data-label="${label}">${inner}</div>`}</body></html>`;
}

export function SandboxPreview({
  html,
  css,
  behavior,
  selector,
  height = 260,
}: {
  html: string;
  css: string;
  behavior: DcmBehavior;
  selector: string;
  height?: number;
}) {
  // Every new srcdoc reloads the frame: wait for a pause in the typing instead of flashing on each key.
  const [input] = useDebouncedValue({ html, css, behavior, selector }, 300);
  const doc = useMemo(
    () => previewDocument(input.html, input.css, input.behavior, input.selector),
    [input.html, input.css, input.behavior, input.selector],
  );
  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      <Group justify="space-between" px="sm" py={6} bg="gray.0" wrap="nowrap">
        <Text size="xs" fw={600} c="dimmed" truncate>
          Pré-visualização
        </Text>
        <Tooltip label="O HTML e o CSS são desenhados num quadro isolado; o JavaScript só roda no seu site, pela tag.">
          <Badge
            size="xs"
            variant="light"
            color="teal"
            leftSection={<IconShieldLock size={11} />}
            style={{ flexShrink: 0 }}
          >
            Sem scripts
          </Badge>
        </Tooltip>
      </Group>
      <Box
        component="iframe"
        title="Pré-visualização das tags customizadas"
        sandbox=""
        srcDoc={doc}
        referrerPolicy="no-referrer"
        w="100%"
        h={height}
        style={{ border: 0, display: 'block', background: '#f8fafc' }}
      />
    </Paper>
  );
}
