import { describeWait, formatInterval, type WaitUnit } from '@impeto/shared';
import {
  type Icon,
  IconArrowsSplit2,
  IconBolt,
  IconClockHour4,
  IconFilter,
  IconFlag,
  IconMessageForward,
  IconSend,
} from '@tabler/icons-react';
import { describeCondition, describeFilter, describeFinish, describeTrigger } from '../blocks/index.ts';
import { BLOCK_LABELS, CHANNEL_LABELS } from './diagram-state.ts';
import type { DiagramBlockType, DraftBlock, StepNodeData, StepNodeType, StepPart } from './graph.ts';
import { WEBVIEW_TYPE_LABELS, type WebviewType } from './webview.ts';

export interface BlockMeta {
  label: string;
  icon: Icon;
  color: string;
  /** What the block is for, under its name in the panel. */
  hint: string;
}

export const BLOCK_META: Record<DiagramBlockType, BlockMeta> = {
  filter: { label: BLOCK_LABELS.filter, icon: IconFilter, color: 'grape', hint: 'Quem recebe: o público do envio.' },
  trigger: {
    label: BLOCK_LABELS.trigger,
    icon: IconBolt,
    color: 'orange',
    hint: 'Quando enviar: o comportamento que dispara.',
  },
  dispatcher: {
    label: BLOCK_LABELS.dispatcher,
    icon: IconSend,
    color: 'blue',
    hint: 'Como enviar: o canal e a mensagem.',
  },
  finish: { label: BLOCK_LABELS.finish, icon: IconFlag, color: 'teal', hint: 'Até quando: a data de finalização.' },
};

const isEmptyTrigger = (block: DraftBlock) => !block.values[0]?.filter;

/** One line for the node card. */
export function summarizeBlock(block: DraftBlock): string {
  switch (block.type) {
    case 'filter': {
      const first = block.values[0];
      if (first && first.filter === '') return 'Escolha quem recebe';
      return describeFilter(block);
    }
    case 'trigger':
      return isEmptyTrigger(block) ? 'Escolha o gatilho' : describeTrigger(block);
    case 'dispatcher': {
      const v = block.values[0] ?? {};
      const type = typeof v.filter === 'string' ? v.filter : '';
      if (!type) return 'Escolha o canal';
      const label = CHANNEL_LABELS[type] ?? type;
      const intervals = Array.isArray(v.intervalRecurrency) ? (v.intervalRecurrency as number[]) : [];
      const repeat = intervals.length ? ` · repete a cada ${intervals.map(formatInterval).join(', ')}` : '';
      if (type === 'SUPERARE_WEBVIEW')
        return `${label}: ${WEBVIEW_TYPE_LABELS[v.webview_type as WebviewType] ?? 'on-site'}${repeat}`;
      const text = String(v.title || v.subject || v.name || v.body || '').trim();
      return `${label}${text ? `: ${text}` : ''}${repeat}`;
    }
    case 'finish':
      return block.values[0]?.value ? `Finaliza em ${describeFinish(block)}` : 'Escolha a data de finalização';
  }
}

/** The journey's blocks (issue #26): a step's wait, condition and message. */
export const STEP_META: Record<StepNodeType, BlockMeta> = {
  wait: { label: 'Espera', icon: IconClockHour4, color: 'gray', hint: 'Quanto tempo depois da etapa anterior.' },
  condition: {
    label: 'Condição',
    icon: IconArrowsSplit2,
    color: 'yellow',
    hint: 'O que a pessoa fez desde a etapa anterior: quem não atende sai da jornada (ou recebe o “senão”).',
  },
  message: {
    label: 'Mensagem',
    icon: IconMessageForward,
    color: 'blue',
    hint: 'O canal e a mensagem desta etapa.',
  },
};

export const stepPartType = (part: StepPart): StepNodeType => (part === 'otherwise' ? 'message' : part);

/** 'Etapa 2', 'Etapa 2 · senão' (the board, the panel and the delivery log). */
export const stepLabel = (step: number, branch: 'main' | 'otherwise' | StepPart = 'main') =>
  branch === 'otherwise' ? `Etapa ${step} · senão` : `Etapa ${step}`;

/** One line for a step's node card. */
export function summarizeStepNode(data: StepNodeData): string {
  if (data.part === 'wait') {
    const w = data.wait ?? {};
    const amount = Number(w.amount);
    if (!Number.isInteger(amount) || amount < 1) return 'Escolha quanto esperar';
    return describeWait({ amount, unit: (w.unit as WaitUnit) ?? 'days', worktime: w.worktime === true });
  }
  if (data.part === 'condition') return describeCondition(data.condition);
  const message = summarizeBlock({ type: 'dispatcher', values: data.values ?? [] });
  return data.variants?.length ? `${message} · ${abLine(data.variants.length)}` : message;
}

/** 'Teste A/B: 2 variantes': a journey step whose message has variants (the canvas, the v2 form's list). */
export const abLine = (variants: number) => `Teste A/B: ${variants} variantes`;
