import { formatInterval } from '@impeto/shared';
import { type Icon, IconBolt, IconFilter, IconFlag, IconSend } from '@tabler/icons-react';
import { describeFilter, describeFinish, describeTrigger } from '../blocks/index.ts';
import { BLOCK_LABELS, CHANNEL_LABELS } from './diagram-state.ts';
import type { DiagramBlockType, DraftBlock } from './graph.ts';
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
