import 'altcha';
import 'altcha/i18n/pt-br';
import { Input } from '@mantine/core';
import type { AltchaWidgetElement } from 'altcha/types/generic';
import type {} from 'altcha/types/react';
import { type CSSProperties, type Ref, useEffect, useImperativeHandle, useRef } from 'react';
import { API_BASE } from '../../../lib/api.ts';

export interface CaptchaHandle {
  /** A solution is good for one attempt: drop it and solve a fresh challenge at once, without a click. */
  renew: () => void;
}

interface Props {
  onChange: (payload: string | null) => void;
  error?: string | null;
  ref?: Ref<CaptchaHandle>;
}

type WidgetEvent = CustomEvent<{ payload?: string; state?: string }>;

const widgetStyle = {
  '--altcha-max-width': '100%',
  '--altcha-border-radius': 'var(--mantine-radius-md)',
  '--altcha-color-primary': 'var(--mantine-color-brand-6)',
} as CSSProperties;

/** The ALTCHA proof-of-work widget (READINGS A-6); its base64 payload is the sign-in `captcha`. */
export function CaptchaWidget({ onChange, error, ref }: Props) {
  const widget = useRef<AltchaWidgetElement>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useImperativeHandle(ref, () => ({
    renew: () => {
      const node = widget.current;
      onChangeRef.current(null);
      node?.reset?.();
      void node?.verify?.();
    },
  }));

  useEffect(() => {
    const node = widget.current;
    if (!node) return;
    const onState = (event: Event) => {
      const { payload, state } = (event as WidgetEvent).detail ?? {};
      onChangeRef.current(state === 'verified' && payload ? payload : null);
    };
    const onVerified = (event: Event) => {
      const { payload } = (event as WidgetEvent).detail ?? {};
      if (payload) onChangeRef.current(payload);
    };
    node.addEventListener('statechange', onState);
    node.addEventListener('verified', onVerified);
    return () => {
      node.removeEventListener('statechange', onState);
      node.removeEventListener('verified', onVerified);
    };
  }, []);

  return (
    <Input.Wrapper label="Verificação de segurança" error={error} id="captcha">
      <altcha-widget
        ref={widget as Ref<HTMLElement>}
        challenge={`${API_BASE.main}/captcha`}
        language="pt-br"
        name="captcha"
        style={widgetStyle}
        data-testid="captcha"
      />
    </Input.Wrapper>
  );
}
