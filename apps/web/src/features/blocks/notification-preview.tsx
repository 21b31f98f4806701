import { Box, Button, Center, Group, Image, SegmentedControl, Stack, Text } from '@mantine/core';
import {
  IconBell,
  IconBrandAndroid,
  IconBrandApple,
  IconBrandUbuntu,
  IconBrandWindows,
  IconChevronDown,
  IconChevronUp,
} from '@tabler/icons-react';
import { type CSSProperties, type ReactNode, useState } from 'react';

export const PREVIEW_CUT = 50;
export const NO_MESSAGE = 'Sem mensagem';
export const TITLE_PROMPT = 'Informe o título para visualizar o exemplo';

/** The closed notification shows the first 50 characters and an ellipsis (spec doc 2 §2.7). */
export const cutMessage = (message: string) =>
  message.length > PREVIEW_CUT ? `${message.slice(0, PREVIEW_CUT)}…` : message;

export interface NotificationPreviewProps {
  title: string;
  message: string;
  icon?: string;
  image?: string;
  /** `notification_buttons`: shown under the opened notification (and always on Windows, as its toasts do). */
  buttons?: { title: string }[];
  /** The selected domain's root, shown as the sender. */
  siteRoot: string;
}

const OS = [
  { value: 'ios', label: 'iOS', icon: IconBrandApple },
  { value: 'macos', label: 'macOS', icon: IconBrandApple },
  { value: 'windows', label: 'Windows', icon: IconBrandWindows },
  { value: 'linux', label: 'Linux', icon: IconBrandUbuntu },
  { value: 'android', label: 'Android', icon: IconBrandAndroid },
] as const;
type Os = (typeof OS)[number]['value'];

const hostOf = (root: string) => {
  try {
    return new URL(root).host;
  } catch {
    return root.replace(/^https?:\/\//, '');
  }
};

const APPLE_FONT = '-apple-system, BlinkMacSystemFont, "SF Pro Text", "Helvetica Neue", Helvetica, Arial, sans-serif';
const WINDOWS_FONT = '"Segoe UI Variable", "Segoe UI", Tahoma, Arial, sans-serif';
const LINUX_FONT = 'Cantarell, Ubuntu, "DejaVu Sans", "Noto Sans", sans-serif';
const ANDROID_FONT = 'Roboto, "Google Sans", "Noto Sans", Arial, sans-serif';

function AppIcon({ src, size, radius }: { src?: string; size: number; radius: number }) {
  return src ? (
    <Image src={src} w={size} h={size} radius={radius} fit="cover" alt="" style={{ flex: 'none' }} />
  ) : (
    <Center
      w={size}
      h={size}
      style={{ flex: 'none', borderRadius: radius, background: 'linear-gradient(135deg,#654cdb,#9c7bf0)' }}
    >
      <IconBell size={size * 0.55} color="white" />
    </Center>
  );
}

const clampTo = (lines: number): CSSProperties => ({
  display: '-webkit-box',
  WebkitLineClamp: lines,
  WebkitBoxOrient: 'vertical',
  overflow: 'hidden',
});
const whole: CSSProperties = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' };

function Stage({ background, children }: { background: string; children: ReactNode }) {
  return (
    <Box
      p="lg"
      style={{ background, borderRadius: 16, minHeight: 200, display: 'flex', alignItems: 'center' }}
      data-testid="notification-stage"
    >
      <Box w="100%" maw={380} mx="auto">
        {children}
      </Box>
    </Box>
  );
}

function PreviewFor({
  os,
  title,
  body,
  icon,
  image,
  host,
  expanded,
  buttons,
}: {
  os: Os;
  title: string;
  body: string;
  icon?: string;
  image?: string;
  host: string;
  /** Opened as the system shows it when the user expands it: the whole message and the large image. */
  expanded: boolean;
  buttons: string[];
}) {
  const muted = body === NO_MESSAGE;
  const clamp = (lines: number) => (expanded ? whole : clampTo(lines));
  const actions = (color: string, background: string, always = false) =>
    buttons.length && (expanded || always) ? (
      <Group gap={6} mt={10} grow wrap="nowrap" data-testid="notification-buttons">
        {buttons.map((title, i) => (
          <Box
            // biome-ignore lint/suspicious/noArrayIndexKey: positional slots (first and second button).
            key={i}
            py={6}
            px={8}
            ta="center"
            style={{ borderRadius: 8, background, color, fontSize: 12, fontWeight: 600, minWidth: 0 }}
          >
            <Text inherit truncate>
              {title}
            </Text>
          </Box>
        ))}
      </Group>
    ) : null;
  const large = (height: number, radius = 0) =>
    expanded && image ? <Image src={image} h={height} radius={radius} fit="cover" alt="" mt={10} /> : null;
  switch (os) {
    case 'ios':
      return (
        <Stage background="linear-gradient(160deg,#1e3c72 0%,#6a5acd 55%,#e7a5c5 100%)">
          <Text ta="center" c="white" fz={44} fw={300} lh={1} mb="md" style={{ fontFamily: APPLE_FONT }}>
            9:41
          </Text>
          <Box
            p={12}
            style={{
              borderRadius: 20,
              background: 'rgba(245,245,250,0.78)',
              backdropFilter: 'blur(20px)',
              fontFamily: APPLE_FONT,
              boxShadow: '0 8px 24px rgba(0,0,0,.18)',
            }}
          >
            <Box style={{ display: 'flex', gap: 10, alignItems: 'flex-start' }}>
              <AppIcon src={icon} size={38} radius={9} />
              <Box style={{ flex: 1, minWidth: 0 }}>
                <Box style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
                  <Text fz={14} fw={600} c="#111" truncate>
                    {title}
                  </Text>
                  <Text fz={12} c="#6b6b70" style={{ flex: 'none' }}>
                    agora
                  </Text>
                </Box>
                <Text fz={13} c={muted ? '#8e8e93' : '#1c1c1e'} style={clamp(2)}>
                  {body}
                </Text>
                <Text fz={11} c="#6b6b70" mt={2} truncate>
                  {host}
                </Text>
              </Box>
              {image && !expanded ? <Image src={image} w={38} h={38} radius={6} fit="cover" alt="" /> : null}
            </Box>
            {large(150, 12)}
            {actions('#1c1c1e', 'rgba(255,255,255,.7)')}
          </Box>
        </Stage>
      );
    case 'macos':
      return (
        <Stage background="linear-gradient(135deg,#f6d365 0%,#fda085 45%,#7f7fd5 100%)">
          <Box
            p={12}
            style={{
              borderRadius: 14,
              background: 'rgba(236,236,236,0.85)',
              backdropFilter: 'blur(24px)',
              border: '0.5px solid rgba(0,0,0,.12)',
              boxShadow: '0 10px 30px rgba(0,0,0,.22)',
              fontFamily: APPLE_FONT,
              display: 'flex',
              gap: 10,
              alignItems: 'center',
            }}
          >
            <AppIcon src={icon} size={36} radius={8} />
            <Box style={{ flex: 1, minWidth: 0 }}>
              <Text fz={13} fw={700} c="#1d1d1f" truncate>
                {title}
              </Text>
              <Text fz={12} c="#3a3a3c" truncate>
                {host}
              </Text>
              <Text fz={12} c={muted ? '#8e8e93' : '#1d1d1f'} style={clamp(2)}>
                {body}
              </Text>
            </Box>
            {image && !expanded ? <Image src={image} w={44} h={44} radius={6} fit="cover" alt="" /> : null}
          </Box>
          {large(150, 10)}
          {actions('#1d1d1f', 'rgba(236,236,236,.9)')}
        </Stage>
      );
    case 'windows':
      return (
        <Stage background="linear-gradient(135deg,#0f2027 0%,#2c5364 60%,#3a7bd5 100%)">
          <Box
            style={{
              borderRadius: 8,
              background: '#2b2b2b',
              color: '#fff',
              fontFamily: WINDOWS_FONT,
              overflow: 'hidden',
              boxShadow: '0 12px 32px rgba(0,0,0,.45)',
              border: '1px solid #3c3c3c',
            }}
          >
            <Box px={12} pt={10} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
              <Box
                w={14}
                h={14}
                style={{ borderRadius: '50%', background: 'conic-gradient(#ea4335 0 33%,#fbbc05 0 66%,#34a853 0)' }}
              />
              <Text fz={11} c="#d0d0d0">
                Google Chrome
              </Text>
            </Box>
            {image ? <Image src={image} h={120} fit="cover" alt="" mt={8} /> : null}
            <Box p={12} style={{ display: 'flex', gap: 12 }}>
              <AppIcon src={icon} size={44} radius={4} />
              <Box style={{ flex: 1, minWidth: 0 }}>
                <Text fz={14} fw={600} truncate>
                  {title}
                </Text>
                <Text fz={13} c={muted ? '#9a9a9a' : '#e6e6e6'} style={clamp(2)}>
                  {body}
                </Text>
                <Text fz={11} c="#a0a0a0" mt={4}>
                  {host}
                </Text>
              </Box>
            </Box>
            <Box px={12} pb={buttons.length ? 12 : 0}>
              {actions('#ffffff', '#3c3c3c', true)}
            </Box>
          </Box>
        </Stage>
      );
    case 'linux':
      return (
        <Stage background="linear-gradient(135deg,#2c001e 0%,#77216f 55%,#e95420 100%)">
          <Box
            p={14}
            style={{
              borderRadius: 12,
              background: '#353535',
              color: '#f2f2f2',
              fontFamily: LINUX_FONT,
              display: 'flex',
              gap: 12,
              boxShadow: '0 10px 28px rgba(0,0,0,.4)',
            }}
          >
            <AppIcon src={icon} size={40} radius={20} />
            <Box style={{ flex: 1, minWidth: 0 }}>
              <Box style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
                <Text fz={14} fw={700} truncate>
                  {title}
                </Text>
                <Text fz={11} c="#aaa" style={{ flex: 'none' }}>
                  agora
                </Text>
              </Box>
              <Text fz={13} c={muted ? '#9a9a9a' : '#dedede'} style={clamp(2)}>
                {body}
              </Text>
              <Text fz={11} c="#aaa" mt={4} truncate>
                {host}
              </Text>
              {large(140, 8)}
              {actions('#f2f2f2', '#4a4a4a')}
            </Box>
            {image && !expanded ? (
              <Image src={image} w={48} h={48} radius={6} fit="cover" alt="" style={{ flex: 'none' }} />
            ) : null}
          </Box>
        </Stage>
      );
    default:
      return (
        <Stage background="linear-gradient(180deg,#c9d6ff 0%,#e2e2e2 100%)">
          <Box
            p={14}
            style={{
              borderRadius: 22,
              background: '#fff',
              fontFamily: ANDROID_FONT,
              boxShadow: '0 4px 16px rgba(0,0,0,.12)',
            }}
          >
            <Box style={{ display: 'flex', alignItems: 'center', gap: 6, marginBottom: 6 }}>
              <Box
                w={16}
                h={16}
                style={{ borderRadius: '50%', background: 'conic-gradient(#ea4335 0 33%,#fbbc05 0 66%,#34a853 0)' }}
              />
              <Text fz={11} c="#5f6368" truncate>
                Chrome • {host} • agora
              </Text>
            </Box>
            <Box style={{ display: 'flex', gap: 10 }}>
              <Box style={{ flex: 1, minWidth: 0 }}>
                <Text fz={14} fw={500} c="#202124" truncate>
                  {title}
                </Text>
                <Text fz={13} c={muted ? '#9aa0a6' : '#5f6368'} style={clamp(2)}>
                  {body}
                </Text>
              </Box>
              <AppIcon src={icon} size={40} radius={20} />
            </Box>
            {image && !expanded ? <Image src={image} h={64} radius={10} fit="cover" alt="" mt={10} /> : null}
            {large(160, 14)}
            {actions('#1a73e8', '#e8f0fe')}
          </Box>
        </Stage>
      );
  }
}

/**
 * How the push notification looks on each system: closed (message cut at 50 characters, spec doc 2 §2.7) or
 * opened as the user expands it (the whole message and the large image).
 */
export function NotificationPreview({ title, message, icon, image, buttons, siteRoot }: NotificationPreviewProps) {
  const [os, setOs] = useState<Os>('android');
  const [expanded, setExpanded] = useState(false);
  const trimmedTitle = title.trim();
  const text = message.trim();
  const body = text ? (expanded ? text : cutMessage(text)) : NO_MESSAGE;
  return (
    <Stack gap="sm">
      <SegmentedControl
        fullWidth
        size="xs"
        value={os}
        onChange={(v) => setOs(v as Os)}
        aria-label="Sistema da prévia"
        data={OS.map((o) => ({ value: o.value, label: o.label }))}
      />
      <Group justify="flex-end">
        <Button
          size="compact-xs"
          variant="subtle"
          aria-pressed={expanded}
          leftSection={expanded ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />}
          onClick={() => setExpanded((e) => !e)}
        >
          {expanded ? 'Ver fechada' : 'Ver aberta'}
        </Button>
      </Group>
      {trimmedTitle ? (
        <PreviewFor
          os={os}
          title={trimmedTitle}
          body={body}
          icon={icon?.trim() || undefined}
          image={image?.trim() || undefined}
          host={hostOf(siteRoot)}
          expanded={expanded}
          buttons={(buttons ?? []).map((b) => b.title.trim()).filter(Boolean)}
        />
      ) : (
        <Center
          mih={200}
          p="lg"
          style={{
            borderRadius: 16,
            border: '1px dashed var(--mantine-color-gray-4)',
            background: 'var(--mantine-color-gray-0)',
          }}
        >
          <Stack align="center" gap={6}>
            <IconBell size={28} color="var(--mantine-color-gray-5)" />
            <Text size="sm" c="dimmed" ta="center">
              {TITLE_PROMPT}
            </Text>
          </Stack>
        </Center>
      )}
    </Stack>
  );
}
