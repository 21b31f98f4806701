import { Button, Group, Popover, Stack, Text } from '@mantine/core';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { readJson, writeJson } from '../../../lib/storage.ts';

/** Once finished or skipped, the tour never shows again in this browser (spec doc 2 §2.4). */
export const TOUR_DONE_KEY = 'impeto.diagram.tour_done';

export const TOUR_STEPS = [
  {
    title: 'Dê um nome ao seu momentum',
    text: 'Clique no lápis para editar o título. Ele deve ser único neste domínio e não pode ficar vazio.',
  },
  { title: 'Descreva o objetivo', text: 'Uma descrição opcional ajuda sua equipe a entender para que serve o envio.' },
  { title: 'Filtro', text: 'Comece pelo filtro: ele define quem recebe, com até duas condições unidas por E ou OU.' },
  {
    title: 'Gatilho',
    text: 'O gatilho diz quando enviar: uma página visitada, um evento, um abandono ou uma recorrência.',
  },
  { title: 'Canal', text: 'Escolha o canal integrado ao domínio e escreva a mensagem que será enviada.' },
  {
    title: 'Salvar',
    text: 'Salve como rascunho, agende uma data de início ou ative imediatamente em "Salvar como".',
  },
] as const;

interface TourState {
  step: number | null;
  next: () => void;
  skip: () => void;
}

const TourContext = createContext<TourState>({ step: null, next: () => {}, skip: () => {} });

export const isTourDone = () => readJson<boolean>('local', TOUR_DONE_KEY) === true;

/** Runs the 6-step tour when `enabled` (new momentums only) and it was not dismissed before. */
export function TourProvider({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  const [step, setStep] = useState<number | null>(() => (enabled && !isTourDone() ? 0 : null));
  const finish = useCallback(() => {
    writeJson('local', TOUR_DONE_KEY, true);
    setStep(null);
  }, []);
  const next = useCallback(() => {
    setStep((s) => {
      if (s === null || s + 1 >= TOUR_STEPS.length) {
        writeJson('local', TOUR_DONE_KEY, true);
        return null;
      }
      return s + 1;
    });
  }, []);
  const value = useMemo(() => ({ step: enabled ? step : null, next, skip: finish }), [enabled, step, next, finish]);
  return <TourContext.Provider value={value}>{children}</TourContext.Provider>;
}

export const useTourStep = () => useContext(TourContext).step;

/** Anchors step `step` of the tour to its child. */
export function TourTarget({ step, children }: { step: number; children: ReactNode }) {
  const tour = useContext(TourContext);
  const content = TOUR_STEPS[step];
  if (!content) return <>{children}</>;
  const last = step === TOUR_STEPS.length - 1;
  return (
    <Popover
      opened={tour.step === step}
      position={step >= 5 ? 'top-end' : step >= 2 ? 'left' : 'bottom-start'}
      withArrow
      shadow="md"
      width={300}
      zIndex={250}
      trapFocus={false}
      closeOnClickOutside={false}
      // The target is a plain wrapper, not a button: aria-haspopup/expanded are not allowed on it (axe, issue #29).
      withRoles={false}
    >
      <Popover.Target>
        <div>{children}</div>
      </Popover.Target>
      <Popover.Dropdown role="dialog" aria-label={`Tour: ${content.title}`}>
        <Stack gap="xs">
          <Text size="xs" c="dimmed" fw={600}>
            Passo {step + 1} de {TOUR_STEPS.length}
          </Text>
          <Text fw={700}>{content.title}</Text>
          <Text size="sm">{content.text}</Text>
          <Group justify="space-between" mt={4}>
            <Button variant="subtle" size="xs" color="gray" onClick={tour.skip}>
              Pular tour
            </Button>
            <Button size="xs" onClick={tour.next}>
              {last ? 'Concluir' : 'Próximo'}
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
